import Crypto
import Foundation
import JWTKit
import TandemProtocol

/// Mints short-lived access tokens: JWTs signed ES256 with the server's signing key.
///
/// ```swift
/// let signer = try await AccessTokenSigner(signingKey: keys.signingKey, issuer: "https://auth.example.com")
/// let jwt = try await signer.sign(for: redemption.family, now: Timestamp(clock.now))
/// ```
struct AccessTokenSigner: Sendable {
    /// The `iss` claim of every token.
    let issuer: String
    /// How long a token lives.
    let lifetime: Duration
    /// The key id in each token's header, derived from the public key.
    let keyID: String

    private let keys: JWTKeyCollection
    private let signingKey: P256.Signing.PrivateKey
    /// The encoded JOSE header, the same for every token.
    private let encodedHeader: String

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - signingKey: The server's P-256 key.
    ///   - issuer: The issuer URL.
    ///   - lifetime: The access tokens' lifetime (default 5 minutes).
    init(signingKey: P256.Signing.PrivateKey, issuer: String, lifetime: Duration = .seconds(300)) async throws(TokenError) {
        self.issuer = issuer
        self.lifetime = lifetime
        keyID = Self.keyID(of: signingKey.publicKey)
        self.signingKey = signingKey
        encodedHeader = Base64URL.encode(Array("{\"alg\":\"ES256\",\"kid\":\(JSONString.quoted(keyID)),\"typ\":\"JWT\"}".utf8))
        keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PrivateKey(backing: signingKey), kid: JWKIdentifier(string: keyID))
        } catch {
            throw .keyFailure("the signing key is not a usable ES256 key: \(error)")
        }
    }

    /// The `kid` of `publicKey`, in the JWKS and every token's header: base64url of the first
    /// 12 bytes of the SHA-256 of its X9.63 form.
    static func keyID(of publicKey: P256.Signing.PublicKey) -> String {
        Base64URL.encode(SHA256.hash(data: publicKey.x963Representation).prefix(12))
    }

    /// Signs an access token for a grant.
    ///
    /// - Parameters:
    ///   - family: The grant (user, client, scope, audience; a grant bound to a DPoP key gives
    ///     the token its `cnf.jkt`).
    ///   - scope: A narrower scope for this token (default: the family's).
    ///   - now: The issue time.
    func sign(for family: TokenFamily, scope: String? = nil, now: Timestamp) async throws(TokenError) -> String {
        // NumericDate claims in whole seconds: some verifiers reject fractional ones.
        let issuedAt = now.milliseconds / 1000
        let expires = Timestamp(milliseconds: issuedAt * 1000).adding(lifetime).milliseconds / 1000
        // The payload is written directly rather than through JSONEncoder and JWTKit's serializer,
        // which together cost more than the ECDSA signature; `verify(_:)` (JWTKit) and the tests
        // check that the result is a standard ES256 JWT with exactly these claims.
        var payload = "{\"aud\":" + JSONString.quoted(family.audience)
        payload += ",\"client_id\":" + JSONString.quoted(family.clientID)
        if let jkt = family.dpopJKT { payload += ",\"cnf\":{\"jkt\":" + JSONString.quoted(jkt) + "}" }
        payload += ",\"exp\":" + String(expires)
        payload += ",\"fid\":" + JSONString.quoted(family.id)
        payload += ",\"iat\":" + String(issuedAt)
        payload += ",\"iss\":" + JSONString.quoted(issuer)
        payload += ",\"jti\":" + JSONString.quoted(Self.randomUUID())
        payload += ",\"scope\":" + JSONString.quoted(scope ?? family.scope)
        payload += ",\"sub\":" + JSONString.quoted(family.userID) + "}"
        let signingInput = encodedHeader + "." + Base64URL.encode(payload.utf8)
        do {
            let signature = try signingKey.signature(for: Array(signingInput.utf8))
            return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        } catch {
            throw .keyFailure("signing an access token failed: \(error)")
        }
    }

    /// A random (version 4) UUID in lowercase, for `jti`. Foundation's `UUID()` opens, reads and
    /// closes /dev/urandom on every call on Linux; this takes the same 122 random bits from the
    /// system generator in two calls.
    static func randomUUID() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (generator.next() as UInt64, generator.next() as UInt64)
        var uuid = withUnsafeBytes(of: words) { $0.loadUnaligned(as: uuid_t.self) }
        uuid.6 = uuid.6 & 0x0F | 0x40
        uuid.8 = uuid.8 & 0x3F | 0x80
        return UUID(uuid: uuid).uuidString.lowercased()
    }

    /// Verifies a token this signer (or another process with the same key) issued, and that it
    /// has not expired at `now`.
    ///
    /// - Returns: Its claims.
    func verify(_ token: String, now: Timestamp) async throws(TokenError) -> AccessTokenClaims {
        do {
            let claims = try await keys.verify(token, as: UncheckedExpiry.self).claims
            try claims.exp.verifyNotExpired(currentDate: now.date)
            return claims
        } catch {
            throw .invalidGrant(.unknownToken)
        }
    }

    /// The claims with the signature checked and expiry left to ``verify(_:now:)``, which knows
    /// what time it is (``AccessTokenClaims`` checks against the system's clock).
    private struct UncheckedExpiry: JWTPayload {
        let claims: AccessTokenClaims

        init(from decoder: any Decoder) throws {
            claims = try AccessTokenClaims(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try claims.encode(to: encoder)
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
