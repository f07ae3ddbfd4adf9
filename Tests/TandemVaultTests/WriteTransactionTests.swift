import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import TandemVault

/// `vault.write { }`: several items stored and removed in one transaction, all or nothing, with
/// the item set still bound.
@Suite("Write transactions")
struct WriteTransactionTests {
    private struct Abandoned: Error, Equatable {}

    @Test func aWriteStoresAndRemovesEveryItemTogether() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("old".utf8), forKey: "pending")
        try vault.write { transaction in
            try transaction.set(Data("token".utf8), forKey: "refresh-token")
            try transaction.set(["name": "Ada"], forKey: "profile")
            try transaction.removeValue(forKey: "pending")
        }
        vault.lock()

        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "refresh-token") == Data("token".utf8))
        #expect(try reopened.value([String: String].self, forKey: "profile") == ["name": "Ada"])
        #expect(try reopened.data(forKey: "pending") == nil)
    }

    @Test func aThrowInsideWriteRollsEverythingBack() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("1".utf8), forKey: "a")
        try vault.set(Data("c".utf8), forKey: "c")

        #expect(throws: Abandoned()) {
            try vault.write { transaction in
                try transaction.set(Data("2".utf8), forKey: "a")
                try transaction.set(Data("b".utf8), forKey: "b")
                try transaction.removeValue(forKey: "c")
                throw Abandoned()
            }
        }
        #expect(try vault.data(forKey: "a") == Data("1".utf8))
        #expect(try vault.data(forKey: "b") == nil)
        #expect(try vault.data(forKey: "c") == Data("c".utf8))

        // Writes after the rollback keep the item set whole.
        try vault.set(Data("3".utf8), forKey: "a")
        vault.lock()
        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("3".utf8))
        #expect(try reopened.data(forKey: "c") == Data("c".utf8))
    }

    /// A store that fails is the whole transaction's failure even when the body catches it and
    /// goes on: committing the rest would leave the item set and its record out of step, and the
    /// next session would refuse every item.
    @Test func aStoreTheBodyCaughtStillRollsTheTransactionBack() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("a-1".utf8), forKey: "a")
        try vault.set(Data("b-1".utf8), forKey: "b")

        // SQLite refuses values over 512 bytes on the vault's connection from now on.
        try limitValueLength(of: vault, to: 512)
        #expect(throws: VaultError.self) {
            try vault.write { transaction in
                try transaction.set(Data("a-2".utf8), forKey: "a")
                do {
                    try transaction.set(Data(count: 4096), forKey: "b")
                } catch {
                    // Swallowed: the transaction must fail anyway.
                }
            }
        }
        try limitValueLength(of: vault, to: 1_000_000_000)

        #expect(try vault.data(forKey: "a") == Data("a-1".utf8))
        try vault.set(Data("b-2".utf8), forKey: "b")
        vault.lock()
        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("a-1".utf8))
        #expect(try reopened.data(forKey: "b") == Data("b-2".utf8))
    }

    @Test func aWriteReturnsWhatItsBodyReturnsAndReadsItsOwnWrites() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(41, forKey: "launches")
        let launches = try vault.write { transaction in
            let count = try transaction.value(Int.self, forKey: "launches") ?? 0
            try transaction.set(count + 1, forKey: "launches")
            return try transaction.value(Int.self, forKey: "launches")
        }
        #expect(launches == 42)
        #expect(try vault.value(Int.self, forKey: "launches") == 42)
    }

    @Test func theFirstWriteOfASessionRaisesTheGenerationWithItsItems() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        vault.lock()
        let older = try home.snapshotFiles(to: "older")

        let reopened = try home.reopenedVault()
        try reopened.write { transaction in
            try transaction.set(Data("a".utf8), forKey: "a")
            try transaction.set(Data("b".utf8), forKey: "b")
        }
        reopened.lock()
        try home.restoreFiles(from: older)
        #expect(throws: VaultError.rolledBack) { try home.vault().unlock(passcode: VaultFixture.passcode) }
    }

    @Test func puttingBackAnItemAfterABatchedWriteIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.write { transaction in
            try transaction.set(Data("token-1".utf8), forKey: "refresh-token")
            try transaction.set(Data("profile-1".utf8), forKey: "profile")
        }
        let id = try vault.storedID(forKey: "refresh-token")
        let older = try #require(try sealedRow(home, id: id))
        try vault.write { transaction in
            try transaction.set(Data("token-2".utf8), forKey: "refresh-token")
            try transaction.set(Data("profile-2".utf8), forKey: "profile")
        }
        vault.lock()

        try home.editFile { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [older, id])
        }
        try expectItemsRefused(home, key: "profile")
    }

    @Test func deletingARowWrittenInABatchIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.write { transaction in
            for index in 0..<5 { try transaction.set(Data("\(index)".utf8), forKey: "item-\(index)") }
        }
        let id = try vault.storedID(forKey: "item-2")
        vault.lock()

        try home.editFile { db in try db.execute(sql: "DELETE FROM vault_item WHERE id = ?", arguments: [id]) }
        try expectItemsRefused(home, key: "item-0")
    }

    @Test func aRolledBackWriteDropsTheSessionsTagCache() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("1".utf8), forKey: "a")
        #expect(vault.state.withLock { $0.session?.tags?.isValid } == true)
        #expect(throws: Abandoned()) {
            try vault.write { transaction in
                try transaction.set(Data("2".utf8), forKey: "a")
                throw Abandoned()
            }
        }
        #expect(vault.state.withLock { $0.session?.tags?.isValid } == false)
    }

    @Test func aCommitByAnotherConnectionDropsTheTagCache() throws {
        let home = try VaultFixture()
        let (first, second) = try home.twoInstances()
        try first.set(Data("1".utf8), forKey: "a")
        #expect(try second.data(forKey: "a") == Data("1".utf8))
        try first.set(Data("b".utf8), forKey: "b")
        try second.set(Data("2".utf8), forKey: "a")
        #expect(second.state.withLock { $0.session?.tags?.isValid } == false)
        first.lock()
        second.lock()

        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("2".utf8))
        #expect(try reopened.data(forKey: "b") == Data("b".utf8))
    }

    @Test func writesAfterAnotherInstanceWroteStillBindTheItemSet() throws {
        let home = try VaultFixture()
        let (first, second) = try home.twoInstances()
        try first.set(Data("1".utf8), forKey: "a")
        #expect(try second.data(forKey: "a") == Data("1".utf8))
        try first.write { transaction in
            try transaction.set(Data("2".utf8), forKey: "a")
            try transaction.set(Data("b".utf8), forKey: "b")
        }
        try second.write { transaction in
            try transaction.set(Data("3".utf8), forKey: "a")
            try transaction.removeValue(forKey: "b")
        }
        try first.set(Data("4".utf8), forKey: "a")
        first.lock()
        second.lock()

        let reopened = try home.reopenedVault()
        #expect(try reopened.data(forKey: "a") == Data("4".utf8))
        #expect(try reopened.data(forKey: "b") == nil)
    }

    /// A new instance opens the vault but serves no item: `key` reads as tampering of the set.
    private func expectItemsRefused(_ home: VaultFixture, key: String) throws {
        let reopened = try home.reopenedVault()
        #expect(throws: VaultError.tampered("the item set")) { try reopened.data(forKey: key) }
    }

    /// Sets SQLite's largest value on the vault's own connection (`SQLITE_LIMIT_LENGTH`).
    private func limitValueLength(of vault: Vault, to length: Int32) throws {
        let queue = try #require(vault.state.withLock { $0.database?.queue })
        queue.inDatabase { db in _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, length) }
    }

    private func sealedRow(_ home: VaultFixture, id: Data) throws -> Data? {
        try home.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id = ?", arguments: [id]) }
    }
}
