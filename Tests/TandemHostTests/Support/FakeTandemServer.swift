import Foundation
import TandemAuth
import TandemProtocol
import TandemPlatform
import TandemVault

/// An in-process Tandem server at `https://tandem.test`, reached as an ``HTTPTransport``: the
/// app configuration document, the RFC 8414 metadata, `/oauth/authorize` (the user is already
/// signed in: it answers the 302 a browser follows back to the app), `/oauth/token` (codes with
/// a real S256 PKCE check, rotating refresh tokens, the extension grant's token exchange) and
/// the business data under `/v1/destinations` for a live bearer token with `data.read`.
///
/// DPoP (RFC 9449) as the real server does it: a token request's proof must carry the current
/// nonce (else 400 `use_dpop_nonce` with `DPoP-Nonce`), a grant issued with a proof is bound to
/// its key and answers `token_type` `DPoP`, its refreshes need a proof by that key and its
/// resource requests `Authorization: DPoP` with a proof; an app with `dpopRequired` refuses
/// token requests without a proof. Proofs are checked on the server's clock.
///
/// Wire names are spelled out here rather than taken from the client's constants, so a typo on
/// the client's side is caught. Tests change what it does through its hooks (revoke every
/// grant, fail an entity set, replace the data) and read what it saw.
final class FakeTandemServer: HTTPTransport {
    static let base = URL(string: "https://tandem.test")!
    static let clientID = "tandem-demo"
    static let redirectURI = "tandemdemo://oauth/callback"

    /// The one app the server knows.
    struct App: Sendable {
        var clientID = FakeTandemServer.clientID
        var name = "Tandem Demo"
        var securityMode = "oauth"
        var redirectURIs = [FakeTandemServer.redirectURI]
        var urlScheme: String? = "tandemdemo"
        var passcodePolicy = PasscodePolicy(minimumLength: 8, requiredCharacterClasses: [.digit, .letter], maximumAttempts: 7)
        /// Whether Lock Screen widgets hide their rows (the server's default: yes).
        var lockScreenRedaction = true
        /// The live keys of an API-key app (`securityMode` `apiKey`).
        var apiKeys: Set<String> = []
        /// Whether the app's grants must be bound to a DPoP key.
        var dpopRequired = false
    }

    /// A destination and its entity sets.
    struct Destination: Sendable {
        var name: String
        var title: String
        var entitySets: [EntitySet]
    }

    /// An entity set and its rows, each field as text.
    struct EntitySet: Sendable {
        var name: String
        var rows: [[String: String]]
    }

    /// One grant: a user's (audience `tandem`) or the widgets' (audience `tandem-extension`,
    /// with the user's grant as parent).
    struct Family: Sendable, Equatable {
        let id: Int
        let scope: String
        let audience: String
        let parent: Int?
        var revoked = false
        /// The thumbprint of the DPoP key the grant is bound to; `nil` for a bearer grant.
        var jkt: String? = nil
    }

    struct PendingCode: Sendable {
        let clientID: String
        let redirectURI: String
        let challenge: String
        let scope: String
    }

    /// An SSO passcode the desktop page showed.
    struct SSOPasscode: Sendable {
        var device: String?
        var label: String?
        var approved: Bool?
        var redeemed = false
    }

    struct State: Sendable {
        var app: App
        var destinations: [Destination]
        var seen: [HTTPRequest] = []
        var counter = 0
        var codes: [String: PendingCode] = [:]
        var families: [Int: Family] = [:]
        var accessTokens: [String: Int] = [:]
        var refreshTokens: [String: Int] = [:]
        var spentRefreshTokens: [String: Int] = [:]
        var failingEntitySets: Set<String> = []
        /// Sets whose customer's backend refuses the user, with the error the server answers.
        var refusedEntitySets: [String: String] = [:]
        var pkceMismatches = 0
        var ssoPasscodes: [String: SSOPasscode] = [:]
        var dpopNonce = "nonce-1"
        /// The grant type and key thumbprint of every token request's accepted proof.
        var proofs: [(grantType: String, jkt: String)] = []
        /// Each device's push registration, as the last `PUT /v1/push/devices/{id}` sent it.
        var pushRegistrations: [String: [String: String]] = [:]
        var pushWidgets: [String: [PushWidgetSubscription]] = [:]
        /// The action endpoint's items, answers and executions.
        var actions = FakeActions()

        mutating func nextToken(_ prefix: String) -> String {
            counter += 1
            return "\(prefix)_\(counter)"
        }

        mutating func newFamily(scope: String, audience: String, parent: Int?, jkt: String? = nil) -> Family {
            counter += 1
            let family = Family(id: counter, scope: scope, audience: audience, parent: parent, jkt: jkt)
            families[family.id] = family
            return family
        }
    }

    let state: Locked<State>
    /// The time DPoP proofs are checked at.
    let clock: any WallClock

    init(app: App = App(), destinations: [Destination] = FakeTandemServer.demoDestinations, clock: any WallClock = SystemClock()) {
        state = Locked(State(app: app, destinations: destinations))
        self.clock = clock
    }

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        guard request.url.host == Self.base.host else { throw .transport("no route to \(request.url.host ?? "?")") }
        return state.withLock { state in
            state.seen.append(request)
            return route(request, &state)
        }
    }

    private func route(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        let path = request.url.path
        switch (request.method, path) {
        case (.get, "/.well-known/oauth-authorization-server"): return metadata()
        case (.get, "/oauth/authorize"): return authorize(request, &state)
        case (.post, "/oauth/token"): return token(request, &state)
        case (.post, "/oauth/revoke"): return revoke(request, &state)
        case (.get, "/v1/apps/\(state.app.clientID)/configuration"): return configuration(state.app)
        case (.get, "/v1/destinations"): return listing(request, state)
        case (.get, _) where path.hasPrefix("/v1/destinations/"): return page(request, state)
        case (.put, _) where path.hasPrefix("/v1/push/devices/"): return registerPush(request, &state)
        case (.post, _) where path.hasPrefix("/v1/destinations/") && path.contains("/actions/"): return itemAction(request, &state)
        case (.put, "/v1/step-up-key"): return registerStepUpKey(request, &state)
        default: return Self.json(404, ["error": "not_found", "error_description": "no route for \(request.method) \(path)"])
        }
    }

    // MARK: - Hooks

    /// Revokes every grant the server issued (the user's and the widgets'), as an administrator
    /// ending the session does: their refresh tokens answer `invalid_grant` from now on.
    func revokeAllGrants() {
        state.withLock { state in
            for id in state.families.keys { state.families[id]?.revoked = true }
        }
    }

    /// Revokes an API key: the data endpoints refuse it from now on.
    func revokeAPIKey(_ key: String) {
        state.withLock { _ = $0.app.apiKeys.remove(key) }
    }

    /// A passcode the desktop page shows, redeemable with the SSO grant.
    func issueSSO(_ passcode: String) {
        state.withLock { $0.ssoPasscodes[passcode] = SSOPasscode() }
    }

    /// The desktop's decision on `passcode`.
    func decideSSO(_ passcode: String, approve: Bool) {
        state.withLock { $0.ssoPasscodes[passcode]?.approved = approve }
    }

    /// What the device redeeming `passcode` said it is, once it did.
    func ssoDeviceLabel(_ passcode: String) -> String? {
        state.withLock { $0.ssoPasscodes[passcode]?.label }
    }

    /// Makes `/v1/destinations/{destination}/{entitySet}` answer 500.
    func failEntitySet(destination: String, entitySet: String) {
        state.withLock { _ = $0.failingEntitySets.insert("\(destination)/\(entitySet)") }
    }

    /// Makes the page of `entitySet` a `403` with `error` (`backend_forbidden`,
    /// `backend_unauthorized`), as a backend destination that refuses the user answers.
    func refuseEntitySet(destination: String, entitySet: String, error: String) {
        state.withLock { $0.refusedEntitySets["\(destination)/\(entitySet)"] = error }
    }

    /// Replaces the business data.
    func setDestinations(_ destinations: [Destination]) {
        state.withLock { $0.destinations = destinations }
    }

    /// Every request, in order.
    var requests: [HTTPRequest] { state.withLock { $0.seen } }

    /// The form bodies of the token requests of `grantType`.
    func tokenRequests(grantType: String) -> [[String: String]] {
        requests.filter { $0.url.path == "/oauth/token" }.map(Self.form).filter { $0["grant_type"] == grantType }
    }

    /// The grant type and key thumbprint of every accepted token request proof, in order.
    var dpopProofs: [(grantType: String, jkt: String)] { state.withLock { $0.proofs } }

    /// Codes whose redemption named a verifier that is not the challenge's.
    var pkceMismatches: Int { state.withLock { $0.pkceMismatches } }

    /// How many grants are issued and not revoked.
    var liveFamilyCount: Int {
        state.withLock { state in state.families.values.filter { !$0.revoked }.count }
    }

    /// The live (issued, not revoked) grant an access token belongs to.
    func liveFamily(ofAccessToken token: String) -> Family? {
        state.withLock { state in state.accessTokens[token].flatMap { state.families[$0] }.flatMap { $0.revoked ? nil : $0 } }
    }

    /// The live grant a refresh token redeems, if it is unspent.
    func liveFamily(ofRefreshToken token: String) -> Family? {
        state.withLock { state in state.refreshTokens[token].flatMap { state.families[$0] }.flatMap { $0.revoked ? nil : $0 } }
    }

    // MARK: - Coding

    /// The form parameters of a request's `application/x-www-form-urlencoded` body.
    static func form(_ request: HTTPRequest) -> [String: String] {
        var result: [String: String] = [:]
        for pair in String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    static func json(_ status: Int, _ object: Any, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A JSON response of `value`, encoded as the real server encodes its documents.
    static func encoded(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: (try? encoder.encode(value)) ?? Data())
    }

    static func oauthError(_ code: String, _ description: String, status: Int = 400, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Cache-Control"] = "no-store"
        return json(status, ["error": code, "error_description": description], headers: headers)
    }
}
