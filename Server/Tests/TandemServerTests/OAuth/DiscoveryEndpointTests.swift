import Crypto
import Foundation
import JWTKit
import TandemProtocol
@testable import TandemServer
import Testing
import TandemServerTestSupport

/// `GET /.well-known/oauth-authorization-server` and `GET /.well-known/jwks.json` through the
/// server built in process.
@Suite("Discovery endpoints over HTTP")
struct DiscoveryEndpointTests {
    /// The issuer the server is built with.
    static let issuer = InProcessServer.issuer

    @Test("the authorization server metadata names the issuer, its endpoints and only what is supported")
    func metadataMatchesTheIssuer() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { _ in }
            let response = try await InProcessServer.test(database) { client in
                try await client.get(".well-known/oauth-authorization-server")
            }
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(response.header("Cache-Control") == "public, max-age=300")
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(object["issuer"] as? String == Self.issuer)
            #expect(object["token_endpoint"] as? String == Self.issuer + "/oauth/token")
            #expect(object["jwks_uri"] as? String == Self.issuer + "/.well-known/jwks.json")
            #expect(object["grant_types_supported"] as? [String] == [
                "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange",
                "urn:tandem:params:oauth:grant-type:sso-passcode",
            ])
            #expect(object["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
            #expect(object["response_types_supported"] as? [String] == ["code"])
            #expect(object["authorization_endpoint"] as? String == Self.issuer + "/oauth/authorize")
            #expect(object["revocation_endpoint"] as? String == Self.issuer + "/oauth/revoke")
            #expect(object["introspection_endpoint"] as? String == Self.issuer + "/oauth/introspect")
            #expect(object["scopes_supported"] as? [String] == ["actions", "data.read", "data.write", "events.write", "offline_access"])
            #expect(object["code_challenge_methods_supported"] as? [String] == ["S256"])
        }
    }

    @Test("the JWKS key verifies an access token from a real refresh, and its kid is the token's")
    func jwksVerifiesIssuedAccessTokens() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                // On the system clock, as the server here: a generic JWT library checks `exp` against it.
                return (fixture, try await fixture.issue(now: Timestamp(Date())))
            }
            let (refreshed, jwksResponse) = try await InProcessServer.test(database) { client in
                let refreshed = try await client.postForm("oauth/token", [
                    ("grant_type", "refresh_token"), ("refresh_token", token.value), ("client_id", fixture.clientID),
                ])
                return (refreshed, try await client.get(".well-known/jwks.json"))
            }
            #expect(refreshed.status == 200)
            #expect(jwksResponse.status == 200)
            #expect(jwksResponse.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(jwksResponse.header("Cache-Control") == "public, max-age=300")

            let set = try #require(try JSONSerialization.jsonObject(with: jwksResponse.body) as? [String: Any])
            let keys = try #require(set["keys"] as? [[String: String]])
            #expect(keys.count == 1)
            let jwk = try #require(keys.first)
            #expect(jwk["kty"] == "EC")
            #expect(jwk["crv"] == "P-256")
            #expect(jwk["use"] == "sig")
            #expect(jwk["alg"] == "ES256")
            #expect(jwk["d"] == nil, "the private scalar is never published")
            let kid = try #require(jwk["kid"])
            let x = try #require(jwk["x"])
            let y = try #require(jwk["y"])
            for coordinate in [x, y] {
                #expect(!coordinate.contains("=") && !coordinate.contains("+") && !coordinate.contains("/"), "base64url without padding")
            }
            let publicKey = try P256.Signing.PublicKey(
                rawRepresentation: try #require(Base64URL.decode(x)) + (try #require(Base64URL.decode(y))))

            // The signature, checked with swift-crypto alone from the published x and y.
            let jwt = try #require(refreshed.json["access_token"])
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            let headerData = try #require(Base64URL.decode(parts[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            #expect(header["alg"] as? String == "ES256")
            #expect(header["kid"] as? String == kid)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
            #expect(!publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])x".utf8)), "a changed payload fails")

            // A generic JWT library configured from the JWKS alone accepts the token too.
            let collection = JWTKeyCollection()
            try await collection.add(jwksJSON: String(decoding: jwksResponse.body, as: UTF8.self))
            let claims = try await collection.verify(jwt, as: AccessTokenClaims.self)
            #expect(claims.iss.value == Self.issuer)
            #expect(claims.sub.value == fixture.user.id)
            #expect(claims.clientID == fixture.clientID)
        }
    }
}
