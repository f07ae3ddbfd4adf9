import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Appends its name to a shared log on the way in and on the way out.
private struct RecordingMiddleware: HTTPMiddleware {
    let name: String
    let log: Locked<[String]>

    func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        log.withLock { $0.append("\(name) in") }
        var request = request
        request.headers["X-Trail"] = (request.headers["X-Trail"].map { $0 + "," } ?? "") + name
        let response = try await next(request)
        log.withLock { $0.append("\(name) out") }
        return response
    }
}

/// Counts calls and hands out numbered tokens.
private final class CountingTokenProvider: AccessTokenProvider {
    let refreshes = Locked(0)
    func accessToken() async throws(AuthError) -> String { "token-\(refreshes.withLock { $0 })" }
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String {
        refreshes.withLock { $0 += 1; return "token-\($0)" }
    }
}

@Suite struct HTTPClientTests {
    let url = URL(string: "https://api.test/v1/destinations")!

    @Test func middlewaresRunInOrderOutermostFirstAndUnwindInReverse() async throws {
        let log = Locked<[String]>([])
        let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 200) }
        let client = HTTPClient(transport: transport, middlewares: [
            RecordingMiddleware(name: "a", log: log), RecordingMiddleware(name: "b", log: log), RecordingMiddleware(name: "c", log: log),
        ])
        _ = try await client.send(HTTPRequest(url: url))
        #expect(log.withLock { $0 } == ["a in", "b in", "c in", "c out", "b out", "a out"])
        #expect(transport.requests.first?.headers["x-trail"] == "a,b,c")
    }

    @Test func unauthorizedIsRefreshedOnceAndRetriedOnce() async throws {
        let provider = CountingTokenProvider()
        let transport = FakeTransport { request throws(AuthError) in
            HTTPResponse(status: request.headers["Authorization"] == "Bearer token-1" ? 200 : 401)
        }
        let client = HTTPClient(transport: transport, middlewares: [BearerTokenMiddleware(provider: provider)])
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(provider.refreshes.withLock { $0 } == 1)
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
    }

    @Test func aSecondUnauthorizedIsReturnedWithoutAnotherRefresh() async throws {
        let provider = CountingTokenProvider()
        let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 401) }
        let client = HTTPClient(transport: transport, middlewares: [BearerTokenMiddleware(provider: provider)])
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == 401)
        #expect(provider.refreshes.withLock { $0 } == 1)
        #expect(transport.requests.count == 2)
    }

    @Test func forbiddenIsNotRefreshed() async throws {
        let provider = CountingTokenProvider()
        let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 403) }
        let client = HTTPClient(transport: transport, middlewares: [BearerTokenMiddleware(provider: provider)])
        #expect(try await client.send(HTTPRequest(url: url)).status == 403)
        #expect(provider.refreshes.withLock { $0 } == 0)
        #expect(transport.requests.count == 1)
    }

    @Test func apiKeyClientAndCorrelationHeadersAreAttached() async throws {
        let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 200) }
        let client = HTTPClient(transport: transport, middlewares: [
            CorrelationIDMiddleware(makeID: { "corr-1" }),
            ClientHeadersMiddleware(appID: "com.example.app", appVersion: "1.2", deviceID: "device-9"),
            APIKeyMiddleware(authentication: APIKeyAuthentication(apiKey: "tdk_secret")),
        ])
        _ = try await client.send(HTTPRequest(url: url))
        let headers = try #require(transport.requests.first?.headers)
        #expect(headers["X-API-Key"] == "tdk_secret")
        #expect(headers["X-Correlation-ID"] == "corr-1")
        #expect(headers["X-App-ID"] == "com.example.app")
        #expect(headers["X-App-Version"] == "1.2")
        #expect(headers["X-Device-ID"] == "device-9")
    }

    @Test func anExistingCorrelationIDIsKept() async throws {
        let transport = FakeTransport { _ throws(AuthError) in HTTPResponse(status: 200) }
        let client = HTTPClient(transport: transport, middlewares: [CorrelationIDMiddleware(makeID: { "new" })])
        _ = try await client.send(HTTPRequest(url: url, headers: ["x-correlation-id": "given"]))
        #expect(transport.requests.first?.headers["X-Correlation-ID"] == "given")
    }

    @Test func loggingShowsMethodPathAndStatusButNoSecret() async throws {
        let capture = LogCapture()
        let transport = FakeTransport { _ throws(AuthError) in
            FakeAuthorizationServer.json(200, #"{"access_token":"at_body_secret"}"#)
        }
        let client = HTTPClient(transport: transport, middlewares: [
            // Innermost, so it sees the request with every credential attached.
            APIKeyMiddleware(authentication: APIKeyAuthentication(apiKey: "tdk_header_secret")),
            LoggingMiddleware(logger: capture.logger),
        ])
        var request = HTTPRequest.form(to: URL(string: "https://api.test/oauth/token?refresh_token=tdr_query_secret&page=2")!,
                                       [("refresh_token", "tdr_body_secret")])
        request.headers["Authorization"] = "Bearer at_header_secret"
        _ = try await client.send(request)
        let logged = capture.lines.joined(separator: "\n")
        #expect(logged.contains("method=POST"))
        #expect(logged.contains("path=/oauth/token?refresh_token=<redacted>&page=2"))
        #expect(logged.contains("status=200"))
        for secret in ["tdk_header_secret", "at_header_secret", "tdr_query_secret", "tdr_body_secret", "at_body_secret"] {
            #expect(!logged.contains(secret))
        }
    }

    @Test func loggedPathsRedactSecretQueryValues() {
        let url = URL(string: "tandemdemo://oauth/callback?code=abc&state=xyz&page=2&api_key=k&refresh_token=r")!
        let logged = LoggingMiddleware.redactedPath(of: url)
        #expect(logged == "/callback?code=<redacted>&state=<redacted>&page=2&api_key=<redacted>&refresh_token=<redacted>")
    }

    @Test func headerNamesAreCaseInsensitiveAndSettingReplaces() {
        var headers: HTTPHeaders = ["Accept": "text/html", "ACCEPT": "application/xml"]
        headers["accept"] = "application/json"
        #expect(Array(headers).count == 1)
        #expect(headers["Accept"] == "application/json")
        headers["Accept"] = nil
        #expect(headers["accept"] == nil)
    }
}
