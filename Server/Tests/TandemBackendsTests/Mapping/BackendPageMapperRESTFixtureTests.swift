import Testing

@testable import TandemBackends

/// Recorded REST responses: GitHub's issue list with its `Link` header, Django REST Framework's
/// paginated list, Notion's cursor list (see `Fixtures/SOURCES.md`), mapped to rows.
@Suite("REST fixtures")
struct BackendPageMapperRESTFixtureTests {
    /// The `ETag` and `Link` headers recorded with the GitHub page.
    private let githubHeaders: [(name: String, value: String)] = [
        (name: "Content-Type", value: "application/json; charset=utf-8"),
        (name: "ETag", value: "\"33b993150c346057e2d21c5333d4bc506287037296cc0ec3f450bafe9b4bdc72\""),
        (name: "Link", value: #"<https://api.github.com/repositories/515435940/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repositories/515435940/issues?per_page=3&page=5>; rel="last""#),
    ]

    /// A plain array, numeric ids, the next page in the `Link` header.
    @Test func githubIssuesWithALinkHeader() throws {
        let mapping = EntitySetMapping(
            protocolKind: .rest, items: .document, id: FieldMapping(pointer: JSONPointer(tokens: ["id"]), type: .number),
            title: FieldMapping(pointer: JSONPointer(tokens: ["title"]), type: .string),
            subtitle: FieldMapping(pointer: JSONPointer(tokens: ["user", "login"])),
            value: FieldMapping(pointer: JSONPointer(tokens: ["comments"])),
            status: FieldMapping(pointer: JSONPointer(tokens: ["state"])),
            date: FieldMapping(pointer: JSONPointer(tokens: ["created_at"]), type: .iso8601), paging: .linkHeader)
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("rest-github-issues.json"), headers: githubHeaders, mapping: mapping, limit: 2)
        #expect(page == BackendPage(
            rows: [
                BackendRow(
                    id: "1308969059", title: "Test issue 13", subtitle: "octokit-fixture-user-a", value: "0", status: "open",
                    date: "2022-07-19T04:39:16Z"),
                BackendRow(
                    id: "1308969023", title: "Test issue 12", subtitle: "octokit-fixture-user-a", value: "0", status: "open",
                    date: "2022-07-19T04:39:13Z"),
            ],
            next: .url("https://api.github.com/repositories/515435940/issues?per_page=3&page=2"),
            etag: "\"33b993150c346057e2d21c5333d4bc506287037296cc0ec3f450bafe9b4bdc72\""))
    }

    /// Django REST Framework's `PageNumberPagination`: `results`, and `next` null on the last page.
    @Test func djangoRESTFrameworkPageNumberPagination() throws {
        let mapping = EntitySetMapping(
            protocolKind: .rest, items: JSONPointer(tokens: ["results"]), id: FieldMapping(pointer: JSONPointer(tokens: ["url"])),
            title: FieldMapping(pointer: JSONPointer(tokens: ["username"])), subtitle: FieldMapping(pointer: JSONPointer(tokens: ["email"])),
            paging: .nextURL(JSONPointer(tokens: ["next"])))
        let page = try BackendPageMapper.map(body: try Fixture.bytes("rest-drf-users.json"), headers: [], mapping: mapping, limit: 10)
        #expect(page == BackendPage(rows: [
            BackendRow(id: "http://127.0.0.1:8000/users/1/", title: "admin", subtitle: "admin@example.com"),
        ]))
    }

    /// Notion's list: `results`, an opaque `next_cursor`, UUID ids, `.000Z` times.
    @Test func notionFileUploadsWithACursor() throws {
        let mapping = EntitySetMapping(
            protocolKind: .rest, items: JSONPointer(tokens: ["results"]), id: FieldMapping(pointer: JSONPointer(tokens: ["id"])),
            title: FieldMapping(pointer: JSONPointer(tokens: ["filename"])), status: FieldMapping(pointer: JSONPointer(tokens: ["status"])),
            date: FieldMapping(pointer: JSONPointer(tokens: ["created_time"]), type: .iso8601),
            paging: .cursor(JSONPointer(tokens: ["next_cursor"])))
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("rest-notion-file-uploads.json"), headers: [], mapping: mapping, limit: 10)
        #expect(page == BackendPage(
            rows: [
                BackendRow(id: "393abc1e-edcd-8190-b7bc-00b2444b98a4", title: "cursor_test_1.txt", status: "pending", date: "2026-07-04T09:11:00Z"),
                BackendRow(id: "393abc1e-edcd-816f-855b-00b2da67381a", title: "cursor_test_0.txt", status: "pending", date: "2026-07-04T09:11:00Z"),
                BackendRow(id: "393abc1e-edcd-81b2-bc65-00b2e1c259e6", title: "cursor_test_1.txt", status: "pending", date: "2026-07-04T09:11:00Z"),
            ],
            next: .cursor("393abc1e-edcd-81bc-a74f-00b25a12b263")))
    }
}
