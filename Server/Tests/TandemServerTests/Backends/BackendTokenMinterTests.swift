import Crypto
import Foundation
import JWTKit
import TandemProtocol
import Testing

@testable import TandemServer

/// The token that carries a user to a customer's backend: a stock JWT library verifies it with
/// the key the JWKS publishes, its claims are exactly the documented ones, and it is no access
/// token for Tandem itself.
@Suite("Backend token")
struct BackendTokenMinterTests {
    static let key = P256.Signing.PrivateKey()
    static let now = Timestamp(milliseconds: 1_894_060_800_123)
    static let alice = BackendPrincipal(userID: "user-1", username: "alice", clientID: "demo-app", viaWidget: false)

    /// The claims as a backend reads them with JWTKit.
    struct Claims: JWTPayload, Equatable {
        struct Actor: Codable, Equatable {
            var sub: String
            var client_id: String
        }
        var act: Actor?
        var aud: AudienceClaim
        var azp: String
        var client_id: String
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var iss: IssuerClaim
        var jti: String
        var preferred_username: String
        var sub: SubjectClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func verified(_ token: String) async throws -> Claims {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(backing: key.publicKey), kid: JWKIdentifier(string: AccessTokenSigner.keyID(of: key.publicKey)))
        return try await keys.verify(token, as: Claims.self)
    }

    static func json(_ part: Substring) throws -> [String: Any] {
        let data = try #require(Base64URL.decode(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
    }

    @Test("a stock JWT library verifies it with the JWKS key; the claims are the user, the app and the backend")
    func claims() async throws {
        let minter = BackendTokenMinter(signingKey: Self.key, issuer: "https://tandem.example.com")
        let token = try minter.mint(for: Self.alice, audience: "https://erp.example.com", now: Self.now)
        let claims = try await Self.verified(token)
        #expect(claims.sub.value == "user-1" && claims.preferred_username == "alice")
        #expect(claims.client_id == "demo-app" && claims.azp == "demo-app" && claims.act == nil)
        #expect(claims.aud.value == ["https://erp.example.com"] && claims.iss.value == "https://tandem.example.com")
        #expect(claims.iat.value == Date(timeIntervalSince1970: 1_894_060_800))
        #expect(claims.exp.value == Date(timeIntervalSince1970: 1_894_060_800 + 300))
        let parts = token.split(separator: ".")
        let header = try Self.json(parts[0])
        #expect(header as NSDictionary == ["alg": "ES256", "typ": "at+jwt", "kid": AccessTokenSigner.keyID(of: Self.key.publicKey)] as NSDictionary)
        #expect(Set(try Self.json(parts[1]).keys) == ["aud", "azp", "client_id", "exp", "iat", "iss", "jti", "preferred_username", "sub"])
        let again = try minter.mint(for: Self.alice, audience: "https://erp.example.com", now: Self.now)
        #expect(try await Self.verified(again).jti != claims.jti, "each call mints its own token")
    }

    @Test("a widget's request names the widgets as the acting party (act)")
    func widgetActs() async throws {
        var principal = Self.alice
        principal.viaWidget = true
        let token = try BackendTokenMinter(signingKey: Self.key, issuer: "https://tandem.example.com")
            .mint(for: principal, audience: "erp", now: Self.now)
        #expect(try await Self.verified(token).act == Claims.Actor(sub: "demo-app:widgets", client_id: "demo-app"))
    }

    @Test("another key's signature is refused; a tampered payload is refused")
    func forgeries() async throws {
        let other = BackendTokenMinter(signingKey: P256.Signing.PrivateKey(), issuer: "https://tandem.example.com")
        let foreign = try other.mint(for: Self.alice, audience: "erp", now: Self.now)
        await #expect(throws: (any Error).self) { try await Self.verified(foreign) }
        let token = try BackendTokenMinter(signingKey: Self.key, issuer: "https://tandem.example.com").mint(for: Self.alice, audience: "erp", now: Self.now)
        let parts = token.split(separator: ".")
        let bob = String(decoding: try #require(Base64URL.decode(String(parts[1]))), as: UTF8.self).replacingOccurrences(of: "alice", with: "bob")
        let tampered = parts[0] + "." + Base64URL.encode(Array(bob.utf8)) + "." + parts[2]
        await #expect(throws: (any Error).self) { try await Self.verified(String(tampered)) }
    }

    @Test("an audience that is empty, overlong or holds a space or control character is refused", arguments: [
        "", String(repeating: "a", count: 513), "erp example", "erp\n", "erp\u{7F}",
    ])
    func badAudiences(_ audience: String) throws {
        let minter = BackendTokenMinter(signingKey: Self.key, issuer: "https://tandem.example.com")
        #expect(throws: BackendIdentityError.self) { try minter.mint(for: Self.alice, audience: audience, now: Self.now) }
    }

    @Test("names with quotes and non-ASCII letters stay exact in the claims")
    func escaping() async throws {
        let principal = BackendPrincipal(userID: "u\"1", username: "zoë \\ \"o\"", clientID: "demo-app", viaWidget: false)
        let token = try BackendTokenMinter(signingKey: Self.key, issuer: "https://tandem.example.com").mint(for: principal, audience: "erp", now: Self.now)
        let claims = try await Self.verified(token)
        #expect(claims.preferred_username == "zoë \\ \"o\"" && claims.sub.value == "u\"1")
    }
}
