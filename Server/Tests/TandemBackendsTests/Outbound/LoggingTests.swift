import Foundation
import TandemBackends
import TandemTestSupport
import Testing

@Suite("Outbound client: logs")
struct LoggingTests {
    private static let token = "Bearer eyJhbGciOi.sekrit-token-value"
    private static let querySecret = "api_key=query-secret-456"

    @Test("Calls log method, origin, status, time and size, and never a header value, a query or a body")
    func nothingSecret() async throws {
        let capture = LogCapture()
        let logger = capture.logger
        try await withTestServer(respond: { request in
            switch request.uri {
            case let uri where uri.hasPrefix("/redirect"):
                .redirect(302, to: "https://elsewhere.example/?\(Self.querySecret)")
            case let uri where uri.hasPrefix("/fail"): .text("stack trace with \(Self.token)", status: 500)
            default: .text("body-content-never-logged")
            }
        }) { server in
            try await withClient(logger: logger) { client in
                let headers: BackendHeaders = ["Authorization": Self.token, "Cookie": "session=cookie-secret"]
                let ok = try await client.send(
                    BackendRequest(.get, server.url("/orders?\(Self.querySecret)"), headers: headers))
                _ = try await client.send(
                    BackendRequest(
                        .post, server.url("/fail?\(Self.querySecret)"), headers: headers, body: Array(Self.token.utf8)))
                _ = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(
                        BackendRequest(.get, server.url("/redirect?\(Self.querySecret)"), headers: headers))
                }
                #expect(ok.status == 200)
            }
        }
        let text = capture.lines.joined(separator: "\n")
        #expect(capture.lines.count == 3)
        #expect(text.contains("backend.method=GET"))
        #expect(text.contains("backend.method=POST"))
        #expect(text.contains("backend.status=200"))
        #expect(text.contains("backend.status=500"))
        #expect(text.contains("backend.origin=http://127.0.0.1:"))
        #expect(text.contains("backend.elapsed_ms="))
        #expect(text.contains("backend.bytes=25"))
        for secret in [
            "sekrit", "eyJhbGciOi", "cookie-secret", "query-secret", "api_key", "/orders", "body-content",
            "stack trace",
        ] {
            #expect(!text.contains(secret), "the log shows \(secret)")
        }
    }

    @Test("Requests, headers and responses print without values")
    func printedValues() {
        let request = BackendRequest(
            .get, URL(string: "https://erp.example.com/orders?\(Self.querySecret)")!,
            headers: ["Authorization": Self.token])
        let response = BackendResponse(
            status: 200, headers: ["Set-Cookie": "session=cookie-secret"], body: Array("secret-body".utf8),
            url: request.url, elapsed: .milliseconds(3))
        let printed = "\(request) \(response) \(request.headers)"
        #expect(printed.contains("GET https://erp.example.com"))
        #expect(printed.contains("Authorization"))
        #expect(printed.contains("Set-Cookie"))
        for secret in ["sekrit", "query-secret", "/orders", "cookie-secret", "secret-body"] {
            #expect(!printed.contains(secret), "the text shows \(secret)")
        }
    }
}
