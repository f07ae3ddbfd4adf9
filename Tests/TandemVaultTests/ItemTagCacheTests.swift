import Foundation
import GRDB
import Testing
@testable import TandemVault

/// A session's writes take the replaced item's tag from its ``ItemTagCache`` instead of reading
/// the row. Whatever happened to the file meanwhile — a row edited by someone with file access
/// while the vault is unlocked, another instance's commit, a rolled-back write — no write may
/// fold a changed row into the item-set record: the next session refuses the set.
@Suite("Item tag cache")
struct ItemTagCacheTests {
    private struct Abandoned: Error, Equatable {}

    @Test func aRowPutBackWhileTheVaultIsUnlockedIsRefusedAfterTheSessionsLaterWrites() throws {
        let (home, vault, b, older) = try withAnOlderBoxOfB()
        // A later write: the latest record is no longer in b's row (see the test after next).
        try vault.set(Data("d".utf8), forKey: "d")

        try putBack(older, as: b, in: home)
        try vault.set(Data("a-2".utf8), forKey: "a")
        try vault.write { transaction in
            try transaction.set(Data("a-3".utf8), forKey: "a")
            try transaction.set(Data("c".utf8), forKey: "c")
        }
        #expect(vault.state.withLock { $0.session?.tags?.isValid } == false)
        vault.lock()

        try expectItemsRefused(home, key: "a")
    }

    @Test func aRowPutBackAfterAnotherInstancesCommitIsRefused() throws {
        let home = try VaultFixture()
        let (first, second) = try home.twoInstances()
        try first.set(Data("a-1".utf8), forKey: "a")
        try first.set(Data("b-1".utf8), forKey: "b")
        let b = try first.storedID(forKey: "b")
        let older = try #require(try sealedRow(home, id: b))
        try second.set(Data("b-2".utf8), forKey: "b")
        try second.set(Data("d".utf8), forKey: "d")

        // The first instance's cache still holds b-1's tag; b-1's box is what gets put back.
        try putBack(older, as: b, in: home)
        try first.set(Data("a-2".utf8), forKey: "a")
        first.lock()
        second.lock()

        try expectItemsRefused(home, key: "a")
    }

    @Test func aRowPutBackThatCarriedTheLatestRecordStopsTheSessionsNextWrite() throws {
        let (home, vault, b, older) = try withAnOlderBoxOfB()

        // b's row has the highest sequence; the box put back says an earlier one.
        try putBack(older, as: b, in: home)
        #expect(throws: VaultError.tampered("the item set")) { try vault.set(Data("a-2".utf8), forKey: "a") }
        vault.lock()

        try expectItemsRefused(home, key: "a")
    }

    @Test func aRowPutBackAfterARolledBackWriteIsRefused() throws {
        let (home, vault, b, older) = try withAnOlderBoxOfB()
        #expect(throws: Abandoned()) {
            try vault.write { transaction in
                try transaction.set(Data("b-3".utf8), forKey: "b")
                throw Abandoned()
            }
        }
        try vault.set(Data("d".utf8), forKey: "d")

        try putBack(older, as: b, in: home)
        try vault.set(Data("a-2".utf8), forKey: "a")
        vault.lock()

        try expectItemsRefused(home, key: "a")
    }

    @Test func writesAfterARolledBackWriteKeepTheSetIntact() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("a-1".utf8), forKey: "a")
        #expect(throws: Abandoned()) {
            try vault.write { transaction in
                try transaction.set(Data("a-2".utf8), forKey: "a")
                try transaction.removeValue(forKey: "a")
                throw Abandoned()
            }
        }
        try vault.set(Data("a-3".utf8), forKey: "a")
        try vault.set(Data("b".utf8), forKey: "b")
        vault.lock()

        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("a-3".utf8))
        #expect(try reopened.data(forKey: "b") == Data("b".utf8))
    }

    @Test func aBatchsLastStoreCarriesTheRecordThatCounts() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.write { transaction in
            for index in 0..<5 { try transaction.set(Data("\(index)".utf8), forKey: "item-\(index)") }
        }
        let last = try vault.storedID(forKey: "item-4")
        let latest = try home.rawDatabase().read { db in
            try Data.fetchOne(db, sql: "SELECT id FROM vault_item WHERE item_seq IS NOT NULL ORDER BY item_seq DESC LIMIT 1")
        }
        #expect(latest == last)
        vault.lock()

        // The row carrying the latest record goes: the earlier records no longer fit the items.
        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [last]) }
        try expectItemsRefused(home, key: "item-0")
    }

    @Test func aBatchEndingInARemovalKeepsItsRecordInTheMetaTable() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("gone".utf8), forKey: "gone")
        try vault.write { transaction in
            try transaction.set(Data("a".utf8), forKey: "a")
            try transaction.removeValue(forKey: "gone")
        }
        let a = try vault.storedID(forKey: "a")
        vault.lock()

        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("a".utf8))
        #expect(try reopened.data(forKey: "gone") == nil)
        reopened.lock()

        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [a]) }
        try expectItemsRefused(home, key: "gone")
    }

    /// A new vault holding `a` = a-1 and `b` = b-2, b's id, and the box of b-1 (written before b-2).
    private func withAnOlderBoxOfB() throws -> (VaultFixture, Vault, Data, Data) {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("a-1".utf8), forKey: "a")
        try vault.set(Data("b-1".utf8), forKey: "b")
        let b = try vault.storedID(forKey: "b")
        let older = try #require(try sealedRow(home, id: b))
        try vault.set(Data("b-2".utf8), forKey: "b")
        return (home, vault, b, older)
    }

    /// Puts `box` back as the row of `id`, as someone with access to the file could.
    private func putBack(_ box: Data, as id: Data, in home: VaultFixture) throws {
        try home.editFile { db in try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [box, id]) }
    }

    /// A new instance opens the vault but serves no item: `key` reads as tampering of the set.
    private func expectItemsRefused(_ home: VaultFixture, key: String) throws {
        let reopened = try home.reopenedVault()
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: key) }
    }

    private func sealedRow(_ home: VaultFixture, id: Data) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id = ?", arguments: [id]) }
    }
}
