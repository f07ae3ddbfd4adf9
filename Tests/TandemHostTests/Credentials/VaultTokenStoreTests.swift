import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemTestSupport
import TandemVault
import Testing

/// The host keeps the user's tokens in its vault: readable only while it is unlocked, never in
/// plain bytes on disk.
@Suite struct VaultTokenStoreTests {
    let directory: TemporaryDirectory
    let tokens = TokenSet(accessToken: "at_1", refreshToken: "tdr_1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")

    init() throws { directory = try TemporaryDirectory() }

    func vault() throws -> Vault {
        let vault = Vault(directory: directory.url, secrets: try FileSecretStorage(directory: directory.url.appendingPathComponent("secrets")))
        try vault.createWithoutPasscode()
        return vault
    }

    @Test func theStoreKeepsTokensAcrossLocking() throws {
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

    @Test func theVaultFileNeverHoldsThePlainToken() throws {
        let vault = try vault()
        try VaultTokenStore(vault: vault).save(tokens)
        vault.lock()
        let bytes = try Data(contentsOf: vault.fileURL)
        #expect(bytes.range(of: Data("tdr_1".utf8)) == nil)
    }
}
