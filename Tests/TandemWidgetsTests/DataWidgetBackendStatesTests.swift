import Foundation
import TandemHost
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// What the business widget shows for a set read from a customer's backend when the backend
/// says no, or is down: "not allowed" or "sign in again" without rows (never the rows shown
/// before), and the server's last rows with their true age.
@Suite struct DataWidgetBackendStatesTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let context = WidgetContext(family: .systemMedium)

    init() throws { home = try WidgetHome() }

    func timeline() async -> Timeline<WidgetContentEntry> {
        await home.provider(clock: clock).timeline(for: WidgetHome.orders, in: context)
    }

    static func refusal(_ error: String) -> Data {
        Data(#"{"error":"\#(error)","error_description":"the backend refused the user"}"#.utf8)
    }

    @Test func aForbiddenSetSaysNotAllowedAndShowsNoRowsItShowedBefore() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now.addingTimeInterval(-60))
        #expect(try #require(await timeline().entries.first).content.rows.count == 3)

        try home.writeSnapshot(Self.refusal("backend_forbidden"), at: clock.now)
        let refused = await timeline()
        let content = try #require(refused.entries.first).content
        #expect(content.rows.isEmpty && content.state == .unavailable && content.footer == "not allowed to see this")
        #expect(refused.policy == .after(TestDates.at(9, 40)), "asked again when the refusal expires")
        #expect(try home.requestedKeys().isEmpty)
    }

    @Test func anIdentityTheBackendDoesNotAcceptAsksToSignInAgain() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(Self.refusal("backend_unauthorized"), at: clock.now)
        let content = try #require(await timeline().entries.first).content
        #expect(content.state == .reauthRequired(reason: "sign in again to see this") && content.rows.isEmpty)
    }

    @Test func aKindTheAppCannotAnswerSaysUpdateTheApp() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(Data(#"{"error":"unsupported_kind","kind":"entity-set"}"#.utf8), at: clock.now)
        #expect(try #require(await timeline().entries.first).content.footer == "update the app to see this")
    }

    @Test func theServersLastRowsOfABackendThatIsDownShowTheirTrueAge() async throws {
        try home.signIn(at: clock.now)
        // The server read the rows three hours ago; its backend has been down since.
        let read = clock.now.addingTimeInterval(-3 * 3600)
        let page = #"{"fetchedAt":"\#(ISO8601Time.string(from: read))","items":[{"id":"A-1","title":"Laptop"}],"limit":5,"next":null,"offset":0,"stale":true,"total":null}"#
        try home.writeSnapshot(Data(page.utf8), at: clock.now)
        let timeline = await timeline()
        let content = try #require(timeline.entries.first).content
        #expect(content.rows.count == 1)
        guard case .stale(let age) = content.state else {
            Issue.record("expected the rows shown stale, got \(content.state)")
            return
        }
        #expect(age == clock.now.timeIntervalSince(read))
    }

    @Test func aBackendPageShowsTitlesAndAmountsAndItsPendingItemsAreActionable() throws {
        let page = try EntitySetPage(json: Data(("""
            {"items":[{"amount":"1299.00","currency":"EUR","etag":"\\"1\\"","id":"A-1001","status":"pending","subtitle":"carol","title":"Laptop"},
            {"amount":"45.00","etag":"\\"3\\"","id":"A-1006","status":"approved","title":"Desk lamp"},{"id":"A-7","subtitle":"no amount"}],
            "limit":5,"next":null,"offset":0,"total":null}
            """).utf8))
        #expect(page.isBackendPage)
        let rows = page.rows(keyField: nil, valueField: nil, entitySet: "Approvals", destination: "erp", policy: ActionPolicyDocument(stepUpAbove: 1000, amountField: "amount"))
        #expect(rows.map(\.key) == ["Laptop", "Desk lamp", "A-7"])
        #expect(rows.map(\.value) == ["1299.00 EUR", "45.00", "no amount"])
        let first = try #require(rows[0].action)
        #expect(first.item == "A-1001" && first.etag == "\"1\"" && first.actions == ItemAction.allCases && first.needsApp)
        #expect(rows[1].action?.actions == [], "decided: shown, not offered")
        #expect(rows[2].action == nil, "no ETag: not actionable")
        #expect(page.rows(keyField: "id", valueField: "subtitle", entitySet: "Approvals").map(\.value) == ["carol", "–", "no amount"])
        // A stored set's rows keep their own model.
        #expect(try !EntitySetPage(json: Pages.orders(2)).isBackendPage)
    }
}
