import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemProtocol

/// `POST /oauth/token` (RFC 6749 §3.2): form-encoded requests, JSON responses, RFC error bodies,
/// `Cache-Control: no-store`. Grant types: `authorization_code` (PKCE S256), `refresh_token`
/// (rotation, reuse detection, grace window) and RFC 8693 token exchange for scoped extension
/// grants.
///
/// Bad input is refused before anything is written: a malformed or oversized body, a repeated
/// parameter, a missing field or an unknown client never reaches the token tables.
///
/// DPoP (RFC 9449): a request may carry a proof in its `DPoP` header (``DPoPVerifier``, with the
/// server's nonce, which every answer sends in `DPoP-Nonce`); the grant it makes is then bound
/// to the proof's key (`cnf.jkt`, `token_type` `DPoP`), and a bound grant's refresh token redeems
/// only with a proof by that key. An app with ``AppRecord/dpopRequired`` gets nothing without
/// a proof, and only there does a bearer grant become bound at a refresh. A proof's `jti` is
/// recorded only once its request is granted (in the granting transaction), so proofs sent with
/// refused requests write nothing. The token exchange is a use of its subject token: a bound one
/// needs a proof by its key (see ``exchangeToken(_:request:app:proof:source:)``).
///
/// A sign-in (code or SSO passcode) may enrol the user's step-up key (``StepUpKeyEnrolment`` in
/// `step_up_key`), kept for that grant from its first moment.
struct TokenEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext

    /// The token endpoint's URL as clients reach it: what proofs and enrolments sent to it name.
    var url: String { context.accessTokens.issuer + "/oauth/token" }

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/oauth/token") { request, requestContext in try await respond(to: request, source: requestContext.sourceKey) }
    }

    /// Handles one token request from `source` (the caller's address, for per-source limits);
    /// every answer, error or not, carries the current `DPoP-Nonce`.
    func respond(to request: Request, source: String = "") async throws(HTTPError) -> Response {
        do {
            var response = try await answer(request, source: source)
            response.headers[.dpopNonce] = context.dpopNonces.current()
            return response
        } catch {
            throw error.headers[.dpopNonce] == nil ? error.header(.dpopNonce, context.dpopNonces.current()) : error
        }
    }

    private func answer(_ request: Request, source: String) async throws(HTTPError) -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): throw failure.httpError
        }
        guard let grantType = form["grant_type"] else {
            throw HTTPError(.invalidRequest, "grant_type is required")
        }
        guard let clientID = form["client_id"] else {
            throw HTTPError(.invalidRequest, "client_id is required")
        }
        do {
            // The cached directory answers first, so random ids cannot each get a fresh bucket. A
            // known client's bucket is per source address too: its client id is public, and one
            // sender must not starve every user of the app.
            let app = try await context.clients.app(clientID: clientID)
            if case .limited(let seconds) = context.tokenLimiter.acquire(app == nil ? "token-unknown" : "token:\(clientID) \(source)") {
                context.logger.notice("token request rate-limited", metadata: ["client_id": "\(clientID)"])
                throw HTTPError.tooManyRequests(retryAfter: seconds)
            }
            guard let app else {
                context.logger.notice("token request from unknown client", metadata: ["client_id": "\(clientID)"])
                throw HTTPError.invalidClient(for: request)
            }
            guard app.securityMode == .oauth else {
                throw HTTPError(.unauthorizedClient, "this client authenticates with an API key, not OAuth")
            }
            // A refresh without a proof is judged by its grant first: a token from before its
            // grant's binding is reuse, whatever comes with it.
            let proof = try self.proof(in: request.headers[values: .dpop], app: app, required: GrantType(rawValue: grantType) != .refreshToken)
            switch GrantType(rawValue: grantType) {
            case .refreshToken: return try await refresh(form, app: app, proof: proof, source: source)
            case .authorizationCode: return try await exchangeCode(form, clientID: clientID, proof: proof, source: source)
            case .tokenExchange: return try await exchangeToken(form, request: request, app: app, proof: proof, source: source)
            case .ssoPasscode:
                return try await redeemSSOPasscode(form, app: app, source: source, userAgent: request.headers[.userAgent], proof: proof)
            case nil:
                throw HTTPError(
                    .unsupportedGrantType, "supported: " + GrantType.allCases.map(\.rawValue).joined(separator: ", "))
            }
        } catch let error as HTTPError {
            throw error
        } catch let error as TokenError {
            throw failure(error, clientID: clientID, grantType: grantType)
        } catch {
            throw failure(.storage(error as? StorageError ?? .unavailable("\(error)")), clientID: clientID, grantType: grantType)
        }
    }

    // MARK: - DPoP

    /// The proof in `headers` (a `DPoP` header, or the exchange's bind header), checked with the
    /// server's nonce but not yet recorded; `nil` when there is none and its app does not require
    /// one (`required`: only the `DPoP` header is).
    func proof(in headers: [String], app: AppRecord, required: Bool = true) throws(HTTPError) -> DPoPVerifier.CheckedProof? {
        let proof: DPoPVerifier.CheckedProof?
        do {
            proof = try context.dpop.check(headers, method: "POST", url: url, nonces: context.dpopNonces)
        } catch {
            if case .nonceRequired(let nonce) = error {
                throw HTTPError(.useDPoPNonce, "send the DPoP proof again with the nonce of the DPoP-Nonce header")
                    .header(.dpopNonce, nonce)
            }
            context.logger.notice("DPoP proof refused", metadata: ["client_id": "\(app.clientID)", "reason": "\(error)"])
            throw HTTPError(.invalidDPoPProof, error.description)
        }
        if required, proof == nil, app.dpopRequired {
            throw HTTPError(.invalidDPoPProof, "this app's token requests must carry a DPoP proof")
        }
        return proof
    }

    // MARK: - Grants

    private func refresh(_ form: FormBody, app: AppRecord, proof: DPoPVerifier.CheckedProof?, source: String) async throws -> Response {
        guard let refreshToken = form["refresh_token"] else {
            throw HTTPError(.invalidRequest, "refresh_token is required")
        }
        let now = Timestamp(context.clock.now)
        if proof == nil, app.dpopRequired {
            try await context.refreshTokens.refuseWithoutProof(token: refreshToken, clientID: app.clientID, source: source, now: now)
            throw HTTPError(.invalidDPoPProof, "this app's token requests must carry a DPoP proof")
        }
        let redemption = try await context.refreshTokens.redeem(
            token: refreshToken, clientID: app.clientID, proof: proof?.record, bindsBearerGrant: app.dpopRequired, source: source, now: now)
        var scope = redemption.family.scope
        if let requested = form["scope"] {
            let narrowed = OAuthScope.parse(requested)
            guard !narrowed.isEmpty, narrowed.isSubset(of: OAuthScope.parse(redemption.family.scope)) else {
                throw HTTPError(.invalidScope, "the scope may not exceed the grant's: \(redemption.family.scope)")
            }
            scope = narrowed.sorted().joined(separator: " ")
        }
        context.logger.info("refresh token redeemed", metadata: [
            "client_id": "\(app.clientID)", "family": "\(redemption.family.id)", "grace_replay": "\(redemption.isGraceReplay)",
        ])
        return try await tokenResponse(redemption, scope: scope, now: now)
    }

    private func exchangeCode(_ form: FormBody, clientID: String, proof: DPoPVerifier.CheckedProof?, source: String) async throws -> Response {
        guard let code = form["code"] else { throw HTTPError(.invalidRequest, "code is required") }
        guard let redirectURI = form["redirect_uri"] else { throw HTTPError(.invalidRequest, "redirect_uri is required") }
        guard let verifier = form["code_verifier"] else {
            throw HTTPError(.invalidRequest, "code_verifier is required (PKCE)")
        }
        let stepUpKey = try enrolledStepUpKey(form, proof: proof)
        let now = Timestamp(context.clock.now)
        let redemption = try await context.codes.redeem(
            code: code, clientID: clientID, redirectURI: redirectURI, verifier: verifier, dpopProof: proof?.record,
            stepUpKey: stepUpKey, now: now)
        context.logger.info("authorization code redeemed", metadata: ["client_id": "\(clientID)", "family": "\(redemption.family.id)"])
        if let stepUpKey { try await auditEnrolment(of: stepUpKey, for: redemption.family, source: source, now: now) }
        return try await tokenResponse(redemption, scope: redemption.family.scope, now: now)
    }

    private func tokenResponse(_ redemption: Redemption, scope: String, now: Timestamp) async throws(TokenError) -> Response {
        let accessToken = try await context.accessTokens.sign(for: redemption.family, scope: scope, now: now)
        let response = TokenResponse(
            accessToken: accessToken, tokenType: redemption.family.tokenType, expiresIn: context.accessTokens.lifetime.components.seconds,
            refreshToken: redemption.refreshToken.value, scope: scope)
        return JSONResponse.raw(response.json, noStore: true)
    }

    // MARK: - Errors

    private func failure(_ error: TokenError, clientID: String, grantType: String) -> HTTPError {
        switch error {
        case .invalidGrant(let reason):
            context.logger.notice("grant refused", metadata: [
                "client_id": "\(clientID)", "grant_type": "\(grantType)", "reason": "\(reason.rawValue)",
            ])
            return HTTPError(.invalidGrant, Self.describe(reason))
        case .dpopKeyMismatch:
            context.logger.notice("grant refused: DPoP key mismatch", metadata: ["client_id": "\(clientID)", "grant_type": "\(grantType)"])
            return HTTPError(.invalidDPoPProof, "the grant is bound to another key than the DPoP proof's")
        case .dpopProofReplayed:
            context.logger.notice("grant refused: DPoP proof replayed", metadata: ["client_id": "\(clientID)", "grant_type": "\(grantType)"])
            return HTTPError(.invalidDPoPProof, DPoPError.replayed.description)
        case .stepUpKeyMisuse:
            return HTTPError(.invalidRequest, error.description)
        case .storage, .keyFailure:
            context.logger.error("token request failed", metadata: ["client_id": "\(clientID)", "error": "\(error)"])
            return .unavailable
        }
    }

    private static func describe(_ reason: TokenError.InvalidGrantReason) -> String {
        switch reason {
        case .unknownToken: "the token or code is not valid"
        case .expired: "the token or code has expired"
        case .reused, .reusedBeforeBinding: "the refresh token was already used; its grant is revoked"
        case .familyRevoked: "the grant has been revoked"
        case .wrongClient: "the refresh token was not issued to this client"
        case .codeReused: "the authorization code was already used; what it issued is revoked"
        case .codeMismatch: "the code, client, redirect_uri and code_verifier do not match"
        case .invalidSubjectToken: "the subject token is not valid"
        }
    }
}
