import Foundation
import Testing
@testable import TandemVault

@Suite("Rollback protection")
struct RollbackTests {
    @Test func anEarlierCopyOfTheVaultFileIsRefused() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault()
            try vault.set(Data("token-1".utf8), forKey: "refresh-token")
            try vault.enableExtensionAccess(shared: home.sharedSecrets)
        }
        let copy = try home.snapshotFiles(to: "earlier")
        do {
            let vault = home.vault()
            try vault.unlock(passcode: VaultFixture.passcode)
            try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        }
        try home.restoreFiles(from: copy)

        let vault = home.vault()
        #expect(throws: VaultError.rolledBack) { try vault.unlock(passcode: VaultFixture.passcode) }
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        #expect(throws: VaultError.rolledBack) { try vault.unlock(pairedKey: share) }
        #expect(!vault.isUnlocked)
        // A correct passcode on a rolled-back file is not a failed guess.
        #expect(try vault.status().failedAttempts == 0)
    }

    @Test func anEarlierCopyFromBeforeAPasscodeChangeIsRefused() throws {
        let home = try VaultFixture()
        do { _ = try home.createdVault() }
        let copy = try home.snapshotFiles(to: "old-passcode")
        do {
            let vault = home.vault()
            try vault.changePasscode(old: VaultFixture.passcode, new: "changed-passcode-1", cost: VaultFixture.fastCost)
        }
        try home.restoreFiles(from: copy)
        #expect(throws: VaultError.rolledBack) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func anotherVaultsFileIsRefused() throws {
        let home = try VaultFixture()
        do { _ = try home.createdVault() }
        let first = try home.snapshotFiles(to: "first")
        do {
            let vault = home.vault()
            try vault.unlock(passcode: VaultFixture.passcode)
            try vault.destroy()
            try vault.create(passcode: VaultFixture.passcode, cost: VaultFixture.fastCost)
        }
        try home.restoreFiles(from: first)
        // The first vault's device secret is gone with it, so it cannot even be opened.
        #expect(throws: VaultError.self) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func readingDoesNotAdvanceTheGenerationButTheFirstWriteOfASessionDoes() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        let start = try #require(try generation(home))
        vault.lock()
        try vault.unlock(passcode: VaultFixture.passcode)
        _ = try vault.data(forKey: "anything")
        #expect(try generation(home) == start)
        try vault.set(Data("1".utf8), forKey: "a")
        try vault.set(Data("2".utf8), forKey: "b")
        #expect(try generation(home) == start + 1)
    }

    private func generation(_ home: VaultFixture) throws -> UInt64? {
        try home.hostSecrets.data(forKey: "vault.generation").flatMap(GenerationRecord.init(serialized:))?.generation
    }
}
