import Foundation
import HTTPTypes
import Hummingbird
import TandemPlatform
import TandemProtocol

// RFC 8693 token exchange: the widgets' grant.
extension TokenEndpoint {
    /// RFC 8693: a live user access token of this client becomes a scoped extension grant — a
    /// new family (read-only scope, extension audience) linked to the user's grant, replacing the
    /// previous one and ending with it at the latest.
    ///
    /// The exchange is a use of the subject token (RFC 9449 §7): a DPoP-bound subject token is
    /// exchanged only with a `DPoP` proof by its key, made for this token (`ath`), so a token
    /// stolen without its key buys nothing here either. The new grant is bound to a key the
    /// request proves: the key of the `Tandem-DPoP-Bind` proof (``DPoPProof/bindHeaderName``,
    /// the widgets' key, which the host holds too), or else the `DPoP` proof's; a bound parent
    /// never gets an unbound child, and the widgets' key is never the sign-in's step-up key. Both
    /// proofs are recorded in the exchange's transaction. A refused exchange is audited
    /// (`token.exchange-refused`, sampled per app and address).
    func exchangeToken(
        _ form: FormBody, request: Request, app: AppRecord, proof: DPoPVerifier.CheckedProof?, source: String
    ) async throws -> Response {
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
        let bindProof = try self.proof(in: request.headers[values: Self.bindHeader], app: app, required: false)
        let now = Timestamp(context.clock.now)
        let refused = HTTPError(
            .invalidRequest, "subject_token is not a live access token of this client with scope \(OAuthScope.dataRead)")
        guard let claims = try? await context.accessTokens.verify(subjectToken, now: now),
              claims.aud.value.contains(OAuthScope.apiAudience),
              claims.clientID == app.clientID,
              OAuthScope.parse(claims.scope).contains(OAuthScope.dataRead),
              let familyID = claims.familyID
        else {
            try await auditRefusedExchange(app: app, userID: nil, reason: "the subject token is not a live user token of this app", source: source, now: now)
            throw refused
        }
        if let jkt = claims.cnf?.jkt {
            guard let proof, ConstantTime.equals(proof.jkt, jkt),
                  let ath = proof.proof.accessTokenHash, ConstantTime.equals(ath, DPoPProof.accessTokenHash(subjectToken))
            else {
                try await auditRefusedExchange(
                    app: app, userID: claims.sub.value, reason: "a DPoP-bound subject token without a proof of its use by its key",
                    source: source, now: now)
                throw HTTPError(
                    .invalidDPoPProof,
                    "the subject token is DPoP-bound: send a DPoP proof by its key with ath, the hash of the subject token")
            }
        }
        let childJKT = bindProof?.jkt ?? proof?.jkt
        let issued: Result<ExtensionGrant, TokenError>
        do throws(TokenError) {
            issued = .success(try await context.refreshTokens.issueExtensionGrant(
                parentID: familyID, clientID: app.clientID, dpopJKT: childJKT, proofs: [proof?.record, bindProof?.record].compactMap { $0 },
                now: now))
        } catch {
            issued = .failure(error)
        }
        let grant: ExtensionGrant
        switch issued {
        case .success(let issuedGrant):
            grant = issuedGrant
        case .failure(.invalidGrant):
            try await auditRefusedExchange(app: app, userID: claims.sub.value, reason: "the subject token's grant is not live", source: source, now: now)
            throw refused
        case .failure(.stepUpKeyMisuse):
            try await auditRefusedExchange(app: app, userID: claims.sub.value, reason: "the widgets' key is the step-up key", source: source, now: now)
            throw HTTPError(.invalidRequest, "the widgets' key must not be the sign-in's step-up key")
        case .failure(let error):
            throw error
        }
        context.revocations.insert(grant.replacedFamilyIDs, now: now)
        context.logger.info("extension grant issued", metadata: [
            "client_id": "\(app.clientID)", "family": "\(grant.family.id)", "parent": "\(familyID)", "replaced": "\(grant.replacedFamilyIDs.count)",
        ])
        let accessToken = try await context.accessTokens.sign(for: grant.family, now: now)
        return JSONResponse.make(
            TokenResponse(
                accessToken: accessToken, tokenType: grant.family.tokenType, expiresIn: context.accessTokens.lifetime.components.seconds,
                refreshToken: grant.refreshToken.value, scope: grant.family.scope, issuedTokenType: accessTokenType),
            noStore: true)
    }

    /// The header of the exchange's second proof.
    static let bindHeader = HTTPField.Name(DPoPProof.bindHeaderName)!

    /// Writes the `token.exchange-refused` audit line, sampled per app and address (anyone can
    /// send exchanges), and logs it.
    private func auditRefusedExchange(app: AppRecord, userID: String?, reason: String, source: String, now: Timestamp) async throws {
        context.logger.notice("token exchange refused", metadata: ["client_id": "\(app.clientID)", "reason": "\(reason)"])
        try await context.audit.recordRefusal(
            "token.exchange-refused", clientID: app.clientID, userID: userID, source: source, detail: reason, now: now)
    }
}
