import Foundation
import GRDB
import Testing
@testable import TandemVault

/// Someone who can write the vault file but holds no key must not be able to put one item back
/// to an older sealed value, delete it, or exchange rows unnoticed.
@Suite("Item set binding")
struct ItemSetTests {
    @Test func puttingBackOneItemsOlderRowIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        let id = try vault.storedID(forKey: "refresh-token")
        let older = try #require(try row(home, id: id))
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        vault.lock()

        try home.editFile { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [older, id])
        }
        try expectItemsRefused(home, key: "refresh-token")
        try expectItemsRefused(home, key: "profile")
    }

    @Test func deletingOneRowIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token"), ("profile", "profile")])
        let id = try vault.storedID(forKey: "refresh-token")
        vault.lock()

        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
        try expectItemsRefused(home, key: "refresh-token")
    }

    @Test func swappingTwoItemsRowsIsTampering() throws {
        let (home, vault) = try holding([("a", "a"), ("b", "b")])
        let (a, b) = (try vault.storedID(forKey: "a"), try vault.storedID(forKey: "b"))
        vault.lock()

        try home.editFile { db in
            try db.execute(sql: "UPDATE vault_item SET id = x'00' WHERE id = ?", arguments: [a])
            try db.execute(sql: "UPDATE vault_item SET id = ? WHERE id = ?", arguments: [a, b])
            try db.execute(sql: "UPDATE vault_item SET id = ? WHERE id = x'00'", arguments: [b])
        }
        try expectItemsRefused(home, key: "a")
    }

    @Test func anOlderItemSetRecordWithItsRowsIsRefusedOnceTheSessionLocked() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        let id = try vault.storedID(forKey: "refresh-token")
        let olderRow = try #require(try fullRow(home, id: id))
        let olderRecord = try #require(try meta(home, "item-set"))
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        vault.lock()

        try home.editFile { db in
            try db.execute(
                sql: "UPDATE vault_item SET sealed = ?, item_seq = ? WHERE id = ?",
                arguments: [olderRow.sealed, olderRow.sequence, id])
            try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'item-set'", arguments: [olderRecord])
        }
        try expectItemsRefused(home, key: "refresh-token")
    }

    @Test func hidingTheLatestRecordBehindALowerSequenceIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        let id = try vault.storedID(forKey: "refresh-token")

        try home.editFile { db in try db.execute(sql: "UPDATE vault_item SET item_seq = 0 WHERE id = ?", arguments: [id]) }
        try expectItemsRefused(home, key: "profile")
    }

    @Test func anOlderRecordPromotedToTheHighestSequenceIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        let id = try vault.storedID(forKey: "profile")

        try home.editFile { db in try db.execute(sql: "UPDATE vault_item SET item_seq = 1000 WHERE id = ?", arguments: [id]) }
        try expectItemsRefused(home, key: "profile")
    }

    @Test func aBoxMovedToAnotherRowWithTheLatestSequenceIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        let token = try #require(try fullRow(home, id: try vault.storedID(forKey: "refresh-token")))
        let profile = try vault.storedID(forKey: "profile")

        try home.editFile { db in
            try db.execute(
                sql: "UPDATE vault_item SET sealed = ?, item_seq = ? WHERE id = ?", arguments: [token.sealed, token.sequence! + 5, profile])
        }
        try expectItemsRefused(home, key: "profile")
    }

    @Test func aBoxWhoseRecordIsNotItsRowsSequenceIsTampering() throws {
        let (home, vault) = try holding([("refresh-token", "token-1"), ("profile", "profile")])
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        let id = try vault.storedID(forKey: "refresh-token")
        let latest = try #require(try fullRow(home, id: id))
        vault.lock()

        // The latest row's sequence raised by one: its box still says the sequence it was sealed with.
        try home.editFile { db in
            try db.execute(sql: "UPDATE vault_item SET item_seq = ? WHERE id = ?", arguments: [latest.sequence! + 1, id])
        }
        try expectItemsRefused(home, key: "profile")
    }

    @Test func removingTheItemSetRecordIsTamperingNotAnOldFormat() throws {
        let (home, vault) = try holding([("refresh-token", "token")])
        vault.lock()
        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_meta WHERE key = 'item-set'") }
        try expectItemsRefused(home, key: "refresh-token")
    }

    @Test func writesRemovalsRewrapsAndReopeningKeepTheSetIntact() throws {
        let home = try VaultFixture()
        let (first, second) = try home.twoInstances()
        for round in 0..<20 {
            try first.set(Data("first-\(round)".utf8), forKey: "k\(round % 5)")
            try second.set(Data("second-\(round)".utf8), forKey: "s\(round % 3)")
            if round.isMultiple(of: 4) { try first.removeValue(forKey: "k\(round % 5)") }
            try second.removeValue(forKey: "never-stored")
            if round.isMultiple(of: 7) {
                try first.changePasscode(old: VaultFixture.passcode, new: VaultFixture.passcode, cost: VaultFixture.fastCost)
                try first.rotatePairedKey(shared: home.sharedSecrets)
                second.lock()
                try second.unlock(pairedKey: try home.pairedShare())
            }
        }
        first.lock()
        second.lock()
        let reopened = try home.reopenedVault()
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

        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
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

    @Test func aVaultOfTheFirstFormOfBindingIsMigratedAndProtectedFromThen() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault()
            try vault.set(Data("token".utf8), forKey: "refresh-token")
            try vault.set(Data("profile".utf8), forKey: "profile")
            try LegacyFormat.downgrade(vault, home: home, to: .separateRecords)
        }
        let legacy = try home.snapshotFiles(to: "first-form")
        let vault = home.vault()
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.data(forKey: "refresh-token") == Data("token".utf8))
        try vault.set(Data("token-2".utf8), forKey: "refresh-token")
        let id = try vault.storedID(forKey: "profile")
        vault.lock()

        // Migrated: the set is bound again, and the file before the migration is a rollback.
        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "refresh-token") == Data("token-2".utf8))
        #expect(try reopened.data(forKey: "profile") == Data("profile".utf8))
        reopened.lock()
        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
        try expectItemsRefused(home, key: "refresh-token")
        try home.restoreFiles(from: legacy)
        #expect(throws: VaultError.rolledBack) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    /// A new vault, unlocked, holding `items` written in order.
    private func holding(_ items: [(key: String, value: String)]) throws -> (VaultFixture, Vault) {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        for item in items { try vault.set(Data(item.value.utf8), forKey: item.key) }
        return (home, vault)
    }

    /// A new instance opens the vault but serves no item: `key` reads as tampering of the set.
    private func expectItemsRefused(_ home: VaultFixture, key: String) throws {
        let reopened = try home.reopenedVault()
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: key) }
    }

    private func row(_ home: VaultFixture, id: Data) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id = ?", arguments: [id]) }
    }

    private func fullRow(_ home: VaultFixture, id: Data) throws -> VaultDatabase.StoredItem? {
        try home.rawDatabase().read { db in
            try Row.fetchOne(db, sql: "SELECT sealed, item_seq FROM vault_item WHERE id = ?", arguments: [id]).map { row in
                VaultDatabase.StoredItem(id: id, sealed: row[0], sequence: row[1])
            }
        }
    }

    private func meta(_ home: VaultFixture, _ key: String) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = ?", arguments: [key]) }
    }
}
