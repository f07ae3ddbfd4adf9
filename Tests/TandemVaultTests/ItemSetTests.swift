import Foundation
import GRDB
import Testing
@testable import TandemVault

/// Someone who can write the vault file but holds no key must not be able to put one item back
/// to an older sealed value, delete it, or exchange rows unnoticed.
@Suite("Item set binding")
struct ItemSetTests {
    @Test func puttingBackOneItemsOlderRowIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("token-1".utf8), forKey: "refresh-token")
        try vault.set(Data("profile".utf8), forKey: "profile")
        let id = try vault.storedID(forKey: "refresh-token")
        let older = try #require(try row(home, id: id))
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        vault.lock()

        try home.rawDatabase().write { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [older, id])
        }
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "refresh-token") }
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "profile") }
    }

    @Test func deletingOneRowIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("token".utf8), forKey: "refresh-token")
        try vault.set(Data("profile".utf8), forKey: "profile")
        let id = try vault.storedID(forKey: "refresh-token")
        vault.lock()

        try home.rawDatabase().write { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "refresh-token") }
    }

    @Test func swappingTwoItemsRowsIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("a".utf8), forKey: "a")
        try vault.set(Data("b".utf8), forKey: "b")
        let (a, b) = (try vault.storedID(forKey: "a"), try vault.storedID(forKey: "b"))
        vault.lock()

        try home.rawDatabase().write { db in
            try db.execute(sql: "UPDATE vault_item SET id = x'00' WHERE id = ?", arguments: [a])
            try db.execute(sql: "UPDATE vault_item SET id = ? WHERE id = ?", arguments: [a, b])
            try db.execute(sql: "UPDATE vault_item SET id = ? WHERE id = x'00'", arguments: [b])
        }
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "a") }
    }

    @Test func anOlderItemSetRecordWithItsRowsIsRefusedOnceTheSessionLocked() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("token-1".utf8), forKey: "refresh-token")
        let id = try vault.storedID(forKey: "refresh-token")
        let olderRow = try #require(try row(home, id: id))
        let olderRecord = try #require(try meta(home, "item-set"))
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        vault.lock()

        try home.rawDatabase().write { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [olderRow, id])
            try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'item-set'", arguments: [olderRecord])
        }
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "refresh-token") }
    }

    @Test func removingTheItemSetRecordIsTamperingNotAnOldFormat() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("token".utf8), forKey: "refresh-token")
        vault.lock()
        try home.rawDatabase().write { db in try db.execute(sql: "DELETE FROM vault_meta WHERE key = 'item-set'") }
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: "refresh-token") }
    }

    @Test func writesRemovalsRewrapsAndReopeningKeepTheSetIntact() throws {
        let home = try VaultFixture()
        let first = try home.createdVault()
        try first.enableExtensionAccess(shared: home.sharedSecrets)
        let second = home.vault()
        try second.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
        for round in 0..<20 {
            try first.set(Data("first-\(round)".utf8), forKey: "k\(round % 5)")
            try second.set(Data("second-\(round)".utf8), forKey: "s\(round % 3)")
            if round.isMultiple(of: 4) { try first.removeValue(forKey: "k\(round % 5)") }
            try second.removeValue(forKey: "never-stored")
            if round.isMultiple(of: 7) {
                try first.changePasscode(old: VaultFixture.passcode, new: VaultFixture.passcode, cost: VaultFixture.fastCost)
                try first.rotatePairedKey(shared: home.sharedSecrets)
                second.lock()
                try second.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
            }
        }
        first.lock()
        second.lock()
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(try reopened.data(forKey: "k1") == nil)
        #expect(try reopened.data(forKey: "k0") == Data("first-15".utf8))
        #expect(try reopened.data(forKey: "k4") == Data("first-19".utf8))
        #expect(try reopened.data(forKey: "s1") == Data("second-19".utf8))
    }

    @Test func aVaultOfThePreviousFormatOpensAndIsProtectedFromThen() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault()
            try vault.set(Data("token".utf8), forKey: "refresh-token")
            try vault.set(Data("profile".utf8), forKey: "profile")
            try LegacyFormat.downgrade(vault, home: home)
        }
        let vault = home.vault()
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.data(forKey: "refresh-token") == Data("token".utf8))
        #expect(try meta(home, "item-set") != nil)
        let id = try vault.storedID(forKey: "profile")
        vault.lock()

        try home.rawDatabase().write { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.tampered("the item set")) { try vault.data(forKey: "refresh-token") }
    }

    @Test func theFirstUnlockOfAnOldFormatVaultRaisesTheGenerationSoItsOldRecordIsRefused() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault()
            try vault.set(Data("token".utf8), forKey: "refresh-token")
            try LegacyFormat.downgrade(vault, home: home)
        }
        let legacy = try home.snapshotFiles(to: "legacy")
        do { try home.vault().unlock(passcode: VaultFixture.passcode) }
        try home.restoreFiles(from: legacy)
        #expect(throws: VaultError.rolledBack) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    private func row(_ home: VaultFixture, id: Data) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id = ?", arguments: [id]) }
    }

    private func meta(_ home: VaultFixture, _ key: String) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = ?", arguments: [key]) }
    }
}
