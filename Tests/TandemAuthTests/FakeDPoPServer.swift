import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemTestSupport

/// A fake of the Tandem authorization server's DPoP rules (RFC 9449), as the SDK must meet them:
///
/// - The token endpoint reads a `DPoP` proof (htm `POST`, htu the token endpoint) and requires
///   its current nonce: a proof without it gets 400 `use_dpop_nonce` and the nonce in
///   `DPoP-Nonce`. Every token answer carries `DPoP-Nonce`.
/// - A grant issued with a proof is bound to the proof key's thumbprint and answers
///   `token_type` `DPoP`; refreshing a bound grant needs a proof by the same key, otherwise 400
///   `invalid_dpop_proof` and the refresh token is not spent. Any grant type other than
///   `refresh_token` (code, SSO, token exchange) issues a new grant.
/// - A token exchange of a bound subject token needs a `DPoP` proof by its key for that token
///   (`ath`); the new grant is bound to the key of the `Tandem-DPoP-Bind` proof, else to the
///   `DPoP` proof's, and a bound subject token never yields a bearer grant.
/// - A spent refresh token redeemed again (by the same key) gets the same successor: the grace
///   window a retry after a lost lease meets.
/// - `/v1/…` wants `Authorization: DPoP <token>` and a proof of the request with `ath` for a
///   bound token (401 for `Bearer`), and `Bearer` for an unbound one.
///
/// Proofs are checked on the clock the test gives, so they must carry that clock's time.
final class FakeDPoPServer: Sendable {
    struct State {
        var nonce = "nonce-1"
        var nonces = 1
        /// Whether the nonce changes after every answer that asks for it, so a retry with the
        /// nonce just given is refused again.
        var rotatesNonceAfterAsking = false
        /// Live refresh tokens and the thumbprint their grant is bound to (`nil`: bearer).
        var grants: [String: String?] = [:]
        var accessTokens: [String: String?] = [:]
        var issued = 0
        /// Successful refreshes.
        var redemptions = 0
        /// Spent refresh tokens and the successor they were redeemed for (the grace window).
        var successors: [String: (access: String, refresh: String)] = [:]
        /// Every proof the token endpoint received, in order.
        var proofs: [DPoPProof] = []
        /// Every bind proof (`Tandem-DPoP-Bind`) the token endpoint received, in order.
        var bindProofs: [DPoPProof] = []
    }

    static let tokenURL = "https://auth.test/oauth/token"
    let state = Locked(State())
    let clock: ManualClock

    init(clock: ManualClock) {
        self.clock = clock
    }

    var proofs: [DPoPProof] { state.withLock { $0.proofs } }
    var bindProofs: [DPoPProof] { state.withLock { $0.bindProofs } }
    var redemptions: Int { state.withLock { $0.redemptions } }

    /// A transport to this server; with `delay`, each token request is answered only after
    /// `delay` on the clock (see ``FakeAuthorizationServer/transport(holdingTokenRequestsFor:on:)``).
    func transport(holdingTokenRequestsFor delay: Duration = .zero) -> FakeTransport {
        FakeTransport { request throws(AuthError) in
            if delay > .zero, request.url.path == "/oauth/token" { try? await self.clock.sleep(for: delay) }
            return self.answer(request)
        }
    }

    /// Issues a grant as if a code had been redeemed, bound to `key` when given.
    func issue(boundTo key: (any DPoPSigner)?, expiresAt: Date) -> TokenSet {
        state.withLock { state in
            let (access, refresh) = Self.issue(&state, jkt: key?.publicKey.thumbprint)
            return TokenSet(accessToken: access, refreshToken: refresh, expiresAt: expiresAt, tokenType: key == nil ? "Bearer" : "DPoP")
        }
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch request.url.path {
        case "/oauth/token": tokenAnswer(request)
        case let path where path.hasPrefix("/v1/"): resourceAnswer(request)
        default: FakeAuthorizationServer().answer(request)
        }
    }

    private func tokenAnswer(_ request: HTTPRequest) -> HTTPResponse {
        let now = clock.now
        return state.withLock { state in
            func reply(_ status: Int, _ body: String) -> HTTPResponse {
                FakeAuthorizationServer.json(status, body, headers: [DPoPProof.nonceHeaderName: state.nonce])
            }
            var jkt: String?
            if let header = request.headers[DPoPProof.headerName] {
                do throws(DPoPError) {
                    let proof = try DPoPProof(parsing: header)
                    state.proofs.append(proof)
                    let current = state.nonce
                    try proof.check(method: "POST", url: Self.tokenURL, now: now, nonce: (current, { $0 == current }))
                    jkt = proof.publicKey.thumbprint
                } catch .nonceRequired {
                    let answer = reply(400, #"{"error":"use_dpop_nonce","error_description":"use the server's nonce"}"#)
                    if state.rotatesNonceAfterAsking {
                        state.nonces += 1
                        state.nonce = "nonce-\(state.nonces)"
                    }
                    return answer
                } catch {
                    return reply(400, #"{"error":"invalid_dpop_proof","error_description":"\#(error)"}"#)
                }
            }
            let form = FakeTransport.form(request)
            var bound = jkt
            if form["grant_type"] == GrantType.tokenExchange.rawValue {
                let subject = form["subject_token"] ?? ""
                if let subjectKey = state.accessTokens[subject] ?? nil {
                    guard let header = request.headers[DPoPProof.headerName], let proof = try? DPoPProof(parsing: header),
                          proof.publicKey.thumbprint == subjectKey, proof.accessTokenHash == DPoPProof.accessTokenHash(subject)
                    else { return reply(400, #"{"error":"invalid_dpop_proof","error_description":"a proof of the subject token's use"}"#) }
                }
                if let header = request.headers[DPoPProof.bindHeaderName] {
                    guard let proof = try? DPoPProof(parsing: header) else { return reply(400, #"{"error":"invalid_dpop_proof"}"#) }
                    state.bindProofs.append(proof)
                    bound = proof.publicKey.thumbprint
                }
            }
            if form["grant_type"] == "refresh_token" {
                guard let token = form["refresh_token"] else { return reply(400, #"{"error":"invalid_request"}"#) }
                if let successor = state.successors[token], let grant = state.grants[successor.refresh] {
                    guard grant == jkt else { return reply(400, #"{"error":"invalid_dpop_proof","error_description":"another key"}"#) }
                    return reply(200, Self.body(successor.access, successor.refresh, bound: grant))
                }
                guard let grant = state.grants[token] else {
                    return reply(400, #"{"error":"invalid_grant"}"#)
                }
                if let grant, grant != jkt { return reply(400, #"{"error":"invalid_dpop_proof","error_description":"another key"}"#) }
                state.grants[token] = nil
                state.redemptions += 1
                bound = grant ?? jkt
            }
            let (access, refresh) = Self.issue(&state, jkt: bound)
            if let spent = form["refresh_token"], form["grant_type"] == "refresh_token" { state.successors[spent] = (access, refresh) }
            return reply(200, Self.body(access, refresh, bound: bound))
        }
    }

    private static func body(_ access: String, _ refresh: String, bound: String?) -> String {
        """
        {"access_token":"\(access)","token_type":"\(bound == nil ? "Bearer" : "DPoP")","expires_in":300,
         "refresh_token":"\(refresh)","scope":"data.read"}
        """
    }

    private static func issue(_ state: inout State, jkt: String?) -> (access: String, refresh: String) {
        state.issued += 1
        let access = "at_\(state.issued)"
        let refresh = "tdr_\(state.issued)"
        state.grants[refresh] = .some(jkt)
        state.accessTokens[access] = .some(jkt)
        return (access, refresh)
    }

    private func resourceAnswer(_ request: HTTPRequest) -> HTTPResponse {
        let now = clock.now
        let parts = (request.headers["Authorization"] ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let bound = state.withLock({ $0.accessTokens[parts[1]] }) else { return HTTPResponse(status: 401) }
        guard let bound else { return HTTPResponse(status: parts[0] == "Bearer" ? 200 : 401) }
        guard parts[0] == "DPoP", let header = request.headers[DPoPProof.headerName],
            let proof = try? DPoPProof(parsing: header), proof.publicKey.thumbprint == bound,
            (try? proof.check(method: request.method.rawValue, url: request.url.absoluteString, now: now, accessToken: parts[1])) != nil
        else { return HTTPResponse(status: 401) }
        return HTTPResponse(status: 200)
    }
}
