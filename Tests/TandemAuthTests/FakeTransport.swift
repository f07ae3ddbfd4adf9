import Foundation
import TandemAuth
import TandemPlatform

/// A transport answering from a handler and recording every request it saw.
final class FakeTransport: HTTPTransport {
    typealias Handler = @Sendable (HTTPRequest) async throws(AuthError) -> HTTPResponse
    private let handler: Handler
    private let seen = Locked<[HTTPRequest]>([])

    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [HTTPRequest] { seen.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        seen.withLock { $0.append(request) }
        return try await handler(request)
    }

    /// The form parameters of a recorded request's body.
    static func form(_ request: HTTPRequest) -> [String: String] {
        let text = String(decoding: request.body ?? Data(), as: UTF8.self)
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }
}

/// A small fake of the Tandem authorization server: metadata, and a token endpoint that rotates
/// refresh tokens (spent ones answer invalid_grant) and counts redemptions.
final class FakeAuthorizationServer: Sendable {
    struct State {
        var liveRefreshToken = "tdr_0"
        var redemptions = 0
        var revoked: [String] = []
        var grantRevoked = false
    }

    let state = Locked(State())
    let base = URL(string: "https://auth.test")!

    var redemptions: Int { state.withLock { $0.redemptions } }

    /// A transport to this server. With a `clock`, each token request is answered only after
    /// `delay` on it: a redemption stays under way until the test moves the clock, however
    /// many callers pile up meanwhile.
    func transport(holdingTokenRequestsFor delay: Duration = .zero, on clock: (any WallClock)? = nil) -> FakeTransport {
        FakeTransport { request throws(AuthError) in
            if let clock, request.url.path == "/oauth/token" { try? await clock.sleep(for: delay) }
            return self.answer(request)
        }
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch request.url.path {
        case "/.well-known/oauth-authorization-server":
            return Self.json(200, """
                {"issuer":"https://auth.test","authorization_endpoint":"https://auth.test/oauth/authorize",
                 "token_endpoint":"https://auth.test/oauth/token","revocation_endpoint":"https://auth.test/oauth/revoke",
                 "code_challenge_methods_supported":["S256"],"grant_types_supported":["authorization_code","refresh_token"]}
                """)
        case "/oauth/token":
            let form = FakeTransport.form(request)
            return state.withLock { state in
                guard form["grant_type"] == "refresh_token" else {
                    return Self.json(200, #"{"access_token":"at_code","token_type":"Bearer","expires_in":300,"refresh_token":"tdr_0","scope":"data.read"}"#)
                }
                guard !state.grantRevoked, form["refresh_token"] == state.liveRefreshToken else {
                    state.grantRevoked = true
                    return Self.json(400, #"{"error":"invalid_grant","error_description":"the refresh token was already used"}"#)
                }
                state.redemptions += 1
                state.liveRefreshToken = "tdr_\(state.redemptions)"
                return Self.json(200, """
                    {"access_token":"at_\(state.redemptions)","token_type":"Bearer","expires_in":300,
                     "refresh_token":"tdr_\(state.redemptions)","scope":"data.read"}
                    """)
            }
        case "/oauth/revoke":
            let token = FakeTransport.form(request)["token"] ?? ""
            state.withLock { $0.revoked.append(token) }
            return HTTPResponse(status: 200)
        default:
            return Self.json(404, #"{"error":"not_found","error_description":"no such path"}"#)
        }
    }

    static func json(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    static let configuration = ClientConfiguration(
        serverURL: URL(string: "https://auth.test")!, clientID: "tandem-demo",
        redirectURI: URL(string: "tandemdemo://oauth/callback")!, urlScheme: "tandemdemo")
}
