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
/// a proof. The token exchange binds the extension grant to the key of its own proof (the
/// widgets' key, which the host holds too).
struct TokenEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext

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
            let proof = try await self.proof(of: request, app: app)
            switch GrantType(rawValue: grantType) {
            case .refreshToken: return try await refresh(form, clientID: clientID, proof: proof)
            case .authorizationCode: return try await exchangeCode(form, clientID: clientID, proof: proof)
            case .tokenExchange: return try await exchangeToken(form, clientID: clientID, proof: proof)
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

    /// The request's DPoP proof, checked (with the server's nonce) and its `jti` spent; `nil`
    /// when it sent none and its app does not require one.
    private func proof(of request: Request, app: AppRecord) async throws(HTTPError) -> DPoPProof? {
        let proof: DPoPProof?
        do {
            proof = try await context.dpop.verify(
                request.headers[values: .dpop], method: "POST", url: context.accessTokens.issuer + "/oauth/token",
                nonces: context.dpopNonces)
        } catch {
            switch error {
            case .proof(.nonceRequired(let nonce)):
                throw HTTPError(.useDPoPNonce, "send the DPoP proof again with the nonce of the DPoP-Nonce header")
                    .header(.dpopNonce, nonce)
            case .proof(let refusal):
                context.logger.notice("DPoP proof refused", metadata: ["client_id": "\(app.clientID)", "reason": "\(refusal)"])
                throw HTTPError(.invalidDPoPProof, refusal.description)
            case .storage(let storageError):
                context.logger.error("checking a DPoP proof failed", metadata: ["error": "\(storageError)"])
                throw HTTPError.unavailable
            }
        }
        if proof == nil, app.dpopRequired {
            throw HTTPError(.invalidDPoPProof, "this app's token requests must carry a DPoP proof")
        }
        return proof
    }

    // MARK: - Grants

    private func refresh(_ form: FormBody, clientID: String, proof: DPoPProof?) async throws -> Response {
        guard let refreshToken = form["refresh_token"] else {
            throw HTTPError(.invalidRequest, "refresh_token is required")
        }
        let now = Timestamp(context.clock.now)
        let redemption = try await context.refreshTokens.redeem(
            token: refreshToken, clientID: clientID, proofJKT: proof?.publicKey.thumbprint, now: now)
        var scope = redemption.family.scope
        if let requested = form["scope"] {
            let narrowed = OAuthScope.parse(requested)
            guard !narrowed.isEmpty, narrowed.isSubset(of: OAuthScope.parse(redemption.family.scope)) else {
                throw HTTPError(.invalidScope, "the scope may not exceed the grant's: \(redemption.family.scope)")
            }
            scope = narrowed.sorted().joined(separator: " ")
        }
        context.logger.info("refresh token redeemed", metadata: [
            "client_id": "\(clientID)", "family": "\(redemption.family.id)", "grace_replay": "\(redemption.isGraceReplay)",
        ])
        return try await tokenResponse(redemption, scope: scope, now: now)
    }

    private func exchangeCode(_ form: FormBody, clientID: String, proof: DPoPProof?) async throws -> Response {
        guard let code = form["code"] else { throw HTTPError(.invalidRequest, "code is required") }
        guard let redirectURI = form["redirect_uri"] else { throw HTTPError(.invalidRequest, "redirect_uri is required") }
        guard let verifier = form["code_verifier"] else {
            throw HTTPError(.invalidRequest, "code_verifier is required (PKCE)")
        }
        let now = Timestamp(context.clock.now)
        let redemption = try await context.codes.redeem(
            code: code, clientID: clientID, redirectURI: redirectURI, verifier: verifier, dpopJKT: proof?.publicKey.thumbprint, now: now)
        context.logger.info("authorization code redeemed", metadata: ["client_id": "\(clientID)", "family": "\(redemption.family.id)"])
        return try await tokenResponse(redemption, scope: redemption.family.scope, now: now)
    }

    /// RFC 8693: a live user access token of this client becomes a scoped extension grant — a
    /// new family (read-only scope, extension audience) linked to the user's grant, replacing the
    /// previous one and ending with it at the latest. A proof sent with the exchange binds the
    /// new grant to its key: the widgets' own, so the widgets' grant is useless without it.
    private func exchangeToken(_ form: FormBody, clientID: String, proof: DPoPProof?) async throws -> Response {
        guard let subjectToken = form["subject_token"] else {
            throw HTTPError(.invalidRequest, "subject_token is required")
        }
        let accessTokenType = TokenTypeIdentifier.accessToken.rawValue
        guard form["subject_token_type"] == accessTokenType else {
            throw HTTPError(.invalidRequest, "subject_token_type must be \(accessTokenType)")
        }
        if let requested = form["requested_token_type"], TokenTypeIdentifier(rawValue: requested) == nil {
            throw HTTPError(
                .invalidRequest, "requested_token_type must be \(accessTokenType) or \(TokenTypeIdentifier.refreshToken.rawValue)")
        }
        if let audience = form["audience"], audience != OAuthScope.extensionAudience {
            throw HTTPError(.invalidTarget, "extension grants are issued for audience \(OAuthScope.extensionAudience) only")
        }
        if let scope = form["scope"], OAuthScope.parse(scope) != [OAuthScope.extensionGrant] {
            throw HTTPError(.invalidScope, "an extension grant has scope \(OAuthScope.extensionGrant)")
        }
        let now = Timestamp(context.clock.now)
        let refused = HTTPError(
            .invalidRequest, "subject_token is not a live access token of this client with scope \(OAuthScope.dataRead)")
        guard let claims = try? await context.accessTokens.verify(subjectToken, now: now),
              claims.aud.value.contains(OAuthScope.apiAudience),
              claims.clientID == clientID,
              OAuthScope.parse(claims.scope).contains(OAuthScope.dataRead),
              let familyID = claims.familyID
        else {
            context.logger.notice("token exchange refused", metadata: ["client_id": "\(clientID)"])
            throw refused
        }
        let grant: ExtensionGrant
        do {
            grant = try await context.refreshTokens.issueExtensionGrant(
                parentID: familyID, clientID: clientID, dpopJKT: proof?.publicKey.thumbprint, now: now)
        } catch .invalidGrant {
            context.logger.notice("token exchange refused: the grant is not live", metadata: ["client_id": "\(clientID)", "parent": "\(familyID)"])
            throw refused
        }
        context.revocations.insert(grant.replacedFamilyIDs, now: now)
        context.logger.info("extension grant issued", metadata: [
            "client_id": "\(clientID)", "family": "\(grant.family.id)", "parent": "\(familyID)", "replaced": "\(grant.replacedFamilyIDs.count)",
        ])
        let accessToken = try await context.accessTokens.sign(for: grant.family, now: now)
        return JSONResponse.make(
            TokenResponse(
                accessToken: accessToken, tokenType: grant.family.tokenType, expiresIn: context.accessTokens.lifetime.components.seconds,
                refreshToken: grant.refreshToken.value, scope: grant.family.scope, issuedTokenType: accessTokenType),
            noStore: true)
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
        case .storage, .keyFailure:
            context.logger.error("token request failed", metadata: ["client_id": "\(clientID)", "error": "\(error)"])
            return .unavailable
        }
    }

    private static func describe(_ reason: TokenError.InvalidGrantReason) -> String {
        switch reason {
        case .unknownToken: "the token or code is not valid"
        case .expired: "the token or code has expired"
        case .reused: "the refresh token was already used; its grant is revoked"
        case .familyRevoked: "the grant has been revoked"
        case .wrongClient: "the refresh token was not issued to this client"
        case .codeReused: "the authorization code was already used; what it issued is revoked"
        case .codeMismatch: "the code, client, redirect_uri and code_verifier do not match"
        case .invalidSubjectToken: "the subject token is not valid"
        }
    }
}
