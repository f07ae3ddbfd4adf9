import Foundation
import TandemProtocol

/// Issues one-time authorization codes after sign-in and redeems them (with PKCE S256) for a
/// new grant: a token family and its first refresh token.
///
/// A code is 256 random bits stored only as its hash, bound to the client, the exact redirect
/// URI and the PKCE challenge, and lives ``lifetime`` (one minute by default). Redemption is one
/// conditional update; redeeming a code a second time revokes the grant it produced
/// (RFC 6749 §4.1.2).
///
/// ```swift
/// let codes = AuthorizationCodeService(codes: database.codes)
/// let code = try await codes.issue(userID: user.id, request: request, now: Timestamp(clock.now))
/// let grant = try await codes.redeem(code: code, clientID: "tandem-demo",
///                                    redirectURI: "tandem-demo://oauth/callback", verifier: verifier)
/// ```
struct AuthorizationCodeService: Sendable {
    /// Where codes and grants are stored.
    let codes: AuthorizationCodeStore
    /// How long a code can be redeemed.
    let lifetime: Duration
    /// How long the refresh tokens of the grants it creates live.
    let refreshTokenLifetime: Duration
    /// How long the grants it creates live at most, whatever their rotations.
    let maxGrantLifetime: Duration

    /// Creates the service.
    init(
        codes: AuthorizationCodeStore, lifetime: Duration = .seconds(60), refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600),
        maxGrantLifetime: Duration = .seconds(90 * 24 * 3600)
    ) {
        self.codes = codes
        self.maxGrantLifetime = maxGrantLifetime
        self.lifetime = lifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    /// Issues a code for a signed-in user and a validated authorization request.
    ///
    /// - Returns: The code (`tdc_…`); only its hash is stored.
    func issue(userID: String, request: AuthorizationRequest, now: Timestamp) async throws(TokenError) -> String {
        let code = SecretToken.generate(.authorizationCode)
        let record = AuthorizationCodeRecord(
            codeHash: SecretToken.hash(code), clientID: request.clientID, userID: userID, redirectURI: request.redirectURI,
            scope: request.scope, codeChallenge: request.codeChallenge, createdAt: now, expiresAt: now.adding(lifetime))
        do {
            try await codes.createAuthorizationCode(record)
        } catch {
            throw .storage(error)
        }
        return code
    }

    /// Redeems a code for a new grant, bound to the key of `dpopProof` when the request proved
    /// one (the proof is recorded with the redemption), with `stepUpKey` as its step-up key.
    ///
    /// - Throws: ``TokenError/invalidGrant(_:)``: `unknownToken`, `expired`, `codeMismatch`
    ///   (nothing changed) or `codeReused` (the grant it produced is now revoked);
    ///   ``TokenError/dpopProofReplayed`` (nothing changed).
    func redeem(
        code: String, clientID: String, redirectURI: String, verifier: String, dpopProof: DPoPProofRecord? = nil,
        stepUpKey: DPoPPublicKey? = nil, now: Timestamp
    ) async throws(TokenError) -> Redemption {
        guard code.hasPrefix(SecretToken.Kind.authorizationCode.rawValue) else { throw .invalidGrant(.unknownToken) }
        guard PKCE.isValidVerifier(verifier) else { throw .invalidGrant(.codeMismatch) }
        let refreshToken = SecretToken.generate(.refreshToken)
        let attempt = CodeRedemption(
            codeHash: SecretToken.hash(code), clientID: clientID, redirectURI: redirectURI,
            computedChallenge: PKCE.challenge(for: verifier), familyID: UUID().uuidString.lowercased(),
            refreshTokenHash: SecretToken.hash(refreshToken), refreshTokenExpiresAt: now.adding(refreshTokenLifetime),
            audience: OAuthScope.apiAudience, now: now, grantExpiresAt: now.adding(maxGrantLifetime), dpopProof: dpopProof,
            stepUpKey: stepUpKey)
        let outcome: CodeRedemptionOutcome
        do {
            outcome = try await codes.redeemAuthorizationCode(attempt)
        } catch {
            throw .storage(error)
        }
        switch outcome {
        case .redeemed(let family):
            return Redemption(refreshToken: RefreshToken(value: refreshToken, familyID: family.id), family: family, isGraceReplay: false)
        case .reused: throw .invalidGrant(.codeReused)
        case .expired: throw .invalidGrant(.expired)
        case .mismatch: throw .invalidGrant(.codeMismatch)
        case .proofReplayed: throw .dpopProofReplayed
        case .unknown: throw .invalidGrant(.unknownToken)
        }
    }
}
