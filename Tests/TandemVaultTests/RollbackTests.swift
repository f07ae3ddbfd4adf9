import Foundation
import GRDB
import TandemPlatform
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

    @Test func anOldPasscodeSlotSplicedIntoTheCurrentFileIsRefused() throws {
        let home = try VaultFixture()
        do { _ = try home.createdVault() }
        let oldSlot = try home.rawDatabase().read { db in
            try Row.fetchOne(db, sql: "SELECT parameters, wrapped, checksum FROM vault_keyslot WHERE id = 'passcode'")
        }
        let slot = try #require(oldSlot)
        do {
            let vault = home.vault()
            try vault.changePasscode(old: VaultFixture.passcode, new: "changed-passcode-1", cost: VaultFixture.fastCost)
        }
        try home.rawDatabase().write { db in
            try db.execute(
                sql: "UPDATE vault_keyslot SET parameters = ?, wrapped = ?, checksum = ? WHERE id = 'passcode'",
                arguments: [slot["parameters"] as Data, slot["wrapped"] as Data, slot["checksum"] as Data])
        }
        // The old passcode unwraps the spliced slot, but the slots no longer match the sealed generation.
        #expect(throws: VaultError.tampered("the generation record")) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func theCurrentGenerationRowSplicedIntoAnOldCopyIsRefused() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault()
            try vault.enableExtensionAccess(shared: home.sharedSecrets)
        }
        let copy = try home.snapshotFiles(to: "old")
        do {
            let vault = home.vault()
            try vault.changePasscode(old: VaultFixture.passcode, new: "changed-passcode-1", cost: VaultFixture.fastCost)
        }
        let current = try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = 'generation'") }
        try home.restoreFiles(from: copy)
        try home.rawDatabase().write { db in
            try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'generation'", arguments: [current])
        }
        #expect(throws: VaultError.tampered("the generation record")) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func recreatingCannotTurnAnOldFileIntoAPasscodeOracle() throws {
        let home = try VaultFixture()
        let policy = PasscodePolicy(maximumAttempts: 3, attemptsBeforeDelay: 3)
        do { _ = try home.createdVault(policy: policy) }
        let original = try home.snapshotFiles(to: "original")
        // The attacker hides the file; onboarding makes a new vault with a passcode they chose.
        try FileManager.default.removeItem(at: home.vaultFile)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: home.vaultFile.path + suffix) }
        try home.vault().create(passcode: "attacker-chosen-1", policy: policy, cost: VaultFixture.fastCost)
        try home.restoreFiles(from: original)
        // Right or wrong, every guess on the original file is refused before it is checked…
        let vault = home.vault()
        #expect(throws: VaultError.rolledBack) { try vault.unlock(passcode: VaultFixture.passcode) }
        #expect(throws: VaultError.rolledBack) { try vault.unlock(passcode: "a-wrong-guess") }
        // …and its device secret is gone, so it cannot be opened at all any more.
        try home.hostSecrets.removeData(forKey: "vault.generation")
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 2)) { try vault.unlock(passcode: VaultFixture.passcode) }
    }

    @Test func aCopyTakenLaterInTheSameSessionIsRefusedOnceTheVaultIsLocked() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("token-1".utf8), forKey: "refresh-token")
        let copy = try home.snapshotFiles(to: "mid-session")
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        vault.lock()
        try home.restoreFiles(from: copy)
        #expect(throws: VaultError.rolledBack) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func twoInstancesWritingInTurnNeverCauseAFalseRollback() throws {
        let home = try VaultFixture()
        let (first, second) = try home.twoInstances()
        for round in 0..<3 {
            try first.changePasscode(old: round == 0 ? VaultFixture.passcode : "passcode-\(round)", new: "passcode-\(round + 1)", cost: VaultFixture.fastCost)
            try second.set(Data("\(round)".utf8), forKey: "k")
            second.lock()
            try second.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
        }
        let third = home.vault()
        try third.unlock(passcode: "passcode-3")
        #expect(try third.data(forKey: "k") == Data("2".utf8))
    }

    private func generation(_ home: VaultFixture) throws -> UInt64? {
        try home.hostSecrets.data(forKey: "vault.generation").flatMap(GenerationRecord.init(serialized:))?.generation
    }
}
