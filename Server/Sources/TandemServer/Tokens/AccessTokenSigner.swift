import Crypto
import Foundation
import JWTKit

/// Mints short-lived access tokens: JWTs signed ES256 with the server's signing key.
///
/// ```swift
/// let signer = try await AccessTokenSigner(signingKey: keys.signingKey, issuer: "https://auth.example.com")
/// let jwt = try await signer.sign(for: redemption.family, now: .now())
/// ```
public struct AccessTokenSigner: Sendable {
    /// The `iss` claim of every token.
    public let issuer: String
    /// How long a token lives.
    public let lifetime: Duration
    /// The key id in each token's header, derived from the public key.
    public let keyID: String

    private let keys: JWTKeyCollection

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - signingKey: The server's P-256 key.
    ///   - issuer: The issuer URL.
    ///   - lifetime: The access tokens' lifetime (default 5 minutes).
    public init(signingKey: P256.Signing.PrivateKey, issuer: String, lifetime: Duration = .seconds(300)) async throws(TokenError) {
        self.issuer = issuer
        self.lifetime = lifetime
        let digest = SHA256.hash(data: signingKey.publicKey.x963Representation)
        keyID = SecretToken.base64URL(Data(digest.prefix(12)))
        keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PrivateKey(backing: signingKey), kid: JWKIdentifier(string: keyID))
        } catch {
            throw .keyFailure("the signing key is not a usable ES256 key: \(error)")
        }
    }

    /// Signs an access token for a grant.
    ///
    /// - Parameters:
    ///   - family: The grant (user, client, scope, audience).
    ///   - scope: A narrower scope for this token (default: the family's).
    ///   - now: The issue time.
    public func sign(for family: TokenFamily, scope: String? = nil, now: Timestamp) async throws(TokenError) -> String {
        // NumericDate claims in whole seconds: some verifiers reject fractional ones.
        let issuedAt = Timestamp(milliseconds: now.milliseconds - now.milliseconds % 1000)
        let claims = AccessTokenClaims(
            iss: IssuerClaim(value: issuer),
            sub: SubjectClaim(value: family.userID),
            aud: AudienceClaim(value: family.audience),
            exp: ExpirationClaim(value: issuedAt.adding(lifetime).date),
            iat: IssuedAtClaim(value: issuedAt.date),
            jti: IDClaim(value: UUID().uuidString.lowercased()),
            scope: scope ?? family.scope,
            clientID: family.clientID,
            familyID: family.id)
        do {
            return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
        } catch {
            throw .keyFailure("signing an access token failed: \(error)")
        }
    }

    /// Verifies a token this signer (or another process with the same key) issued.
    ///
    /// - Returns: Its claims.
    public func verify(_ token: String) async throws(TokenError) -> AccessTokenClaims {
        do {
            return try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw .invalidGrant(.unknownToken)
        }
    }
}
