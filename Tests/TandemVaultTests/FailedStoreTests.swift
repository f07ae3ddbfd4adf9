import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import TandemVault

/// A store that fails inside ``Vault/write(_:)`` fails the whole transaction, even when the
/// body catches its error and goes on: committing the rest would leave the item set and its
/// record out of step, and the next session would refuse every item.
@Suite("Failed store in a transaction")
struct FailedStoreTests {
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
        let reopened = home.vault()
        try reopened.unlock(passcode: VaultFixture.passcode)
        #expect(try reopened.data(forKey: "a") == Data("a-1".utf8))
        #expect(try reopened.data(forKey: "b") == Data("b-2".utf8))
    }

    private func limitValueLength(of vault: Vault, to length: Int32) throws {
        let queue = try #require(vault.state.withLock { $0.database?.queue })
        queue.inDatabase { db in _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, length) }
    }
}
