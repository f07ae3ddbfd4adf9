import Foundation
import TandemHost
import TandemPlatform
import TandemVault
import Testing

@testable import TandemAuth

@Suite struct TokenStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-auth-store-\(UUID().uuidString)")
    let tokens = TokenSet(accessToken: "at_1", refreshToken: "tdr_1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")

    func vault() throws -> Vault {
        let vault = Vault(directory: directory, secrets: try FileSecretStorage(directory: directory.appendingPathComponent("secrets")))
        try vault.createWithoutPasscode()
        return vault
    }

    @Test func vaultStoreKeepsTokensAcrossLocking() throws {
        let vault = try vault()
        let store = VaultTokenStore(vault: vault)
        try store.save(tokens)
        vault.lock()
        #expect(throws: AuthError.self) { try store.load() }
        try vault.unlock()
        #expect(try store.load() == tokens)
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test func vaultFileNeverHoldsThePlainToken() throws {
        let vault = try vault()
        try VaultTokenStore(vault: vault).save(tokens)
        vault.lock()
        let bytes = try Data(contentsOf: vault.fileURL)
        #expect(bytes.range(of: Data("tdr_1".utf8)) == nil)
    }

    @Test func tokenSetRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(tokens)
        #expect(try JSONDecoder().decode(TokenSet.self, from: data) == tokens)
    }
}
