import Crypto
import Foundation
import SQLKit
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The signing and sealing keys are stored only sealed under the system secret, which can be
/// rotated without invalidating a token.
@Suite("server keys at rest")
struct ServerKeySealingTests {
    static let secretA = SystemSecret(current: "first-system-secret-0123456789")
    static let secretB = SystemSecret(current: "second-system-secret-0123456789", previous: ["first-system-secret-0123456789"])

    static func storedMaterial(_ storage: ServerDatabase) async throws -> [Data] {
        try await storage.connector.withConnection { database in
            try await database.raw("SELECT material FROM server_keys ORDER BY id").all().map { try $0.decode(column: "material", as: Data.self) }
        }
    }

    static func contains(_ haystack: Data, _ needle: Data) -> Bool {
        haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { haystack[haystack.startIndex + $0..<haystack.startIndex + $0 + needle.count] == needle }
    }

    @Test("server_keys holds no plaintext key bytes", arguments: TestBackend.allCases)
    func storedKeysAreSealed(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let keys = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA)
                let stored = try await Self.storedMaterial(storage)
                #expect(stored.count == 2)
                for material in stored {
                    #expect(!Self.contains(material, keys.sealingKey))
                    #expect(!Self.contains(material, keys.signingKey.rawRepresentation))
                }
            }
        }
    }

    @Test("a wrong system secret is refused with a typed error and changes nothing", arguments: TestBackend.allCases)
    func wrongSecretRefusesToLoad(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                _ = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA)
                let before = try await Self.storedMaterial(storage)
                await #expect(throws: ServerKeyError.wrongSystemSecret(keyID: "sealing.v1")) {
                    _ = try await ServerKeys.load(from: storage.serverKeys, secret: SystemSecret(current: "some-other-secret-0123456789"))
                }
                #expect(try await Self.storedMaterial(storage) == before)
            }
        }
    }

    @Test("keys stored in plain text by an older server are sealed on the first start with a secret", arguments: TestBackend.allCases)
    func plaintextKeysAreSealedOnStart(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let sealing = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
                let signing = P256.Signing.PrivateKey()
                let now = Timestamp(ManualClock().now)
                _ = try await storage.serverKeys.serverKey(id: "sealing.v1", candidate: sealing, now: now)
                _ = try await storage.serverKeys.serverKey(id: "signing.es256.v1", candidate: signing.rawRepresentation, now: now)
                let keys = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA)
                #expect(keys.sealingKey == sealing)
                #expect(keys.signingKey.rawRepresentation == signing.rawRepresentation)
                for material in try await Self.storedMaterial(storage) {
                    #expect(!Self.contains(material, sealing) && !Self.contains(material, signing.rawRepresentation))
                }
                #expect(try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA).sealingKey == sealing)
            }
        }
    }

    @Test("rotating the secret keeps tokens signed before it verifying; the old secret alone no longer opens", arguments: TestBackend.allCases)
    func rotationKeepsTokensValid(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let before = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA)
                let now = Timestamp(ManualClock().now)
                let family = TokenFamily(id: "f1", clientID: "widget-demo", userID: "user-1", scope: "read", audience: "tandem", createdAt: now, revokedAt: nil)
                let token = try await AccessTokenSigner(signingKey: before.signingKey, issuer: "https://auth.tandem.test").sign(for: family, now: now)

                let rotated = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretB)
                let claims = try await AccessTokenSigner(signingKey: rotated.signingKey, issuer: "https://auth.tandem.test").verify(token, now: now)
                #expect(claims.sub.value == "user-1")
                #expect(rotated.sealingKey == before.sealingKey)

                // Sealed again under the new secret: it opens alone, the old one no longer does.
                #expect(try await ServerKeys.load(from: storage.serverKeys, secret: SystemSecret(current: "second-system-secret-0123456789")).sealingKey == before.sealingKey)
                await #expect(throws: ServerKeyError.self) { _ = try await ServerKeys.load(from: storage.serverKeys, secret: Self.secretA) }
            }
        }
    }
}
