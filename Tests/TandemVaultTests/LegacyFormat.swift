import Foundation
import GRDB
import Testing
@testable import TandemVault

/// Turns a vault into the format written before item-set binding: a generation record sealed
/// without the item-set label, no item-set record, and item rows without their record columns.
enum LegacyFormat {
    /// Rewrites the file of `vault` (unlocked) and locks it.
    static func downgrade(_ vault: Vault, home: VaultFixture) throws {
        let dataKey = try #require(vault.state.withLock { $0.session?.dataKey })
        vault.lock()
        let raw = try home.rawDatabase()
        try raw.write { db in
            let slots = try VaultDatabase.Writer(db: db).slots()
            let sealed = try #require(try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = 'generation'"))
            let generation = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: slots)).generation
            let legacy = try dataKey.sealGeneration(generation, slotDigest: KeySlot.digest(of: slots), bindsItems: false)
            try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'generation'", arguments: [legacy])
            try db.execute(sql: "DELETE FROM vault_meta WHERE key = 'item-set'")
            try db.execute(sql: "ALTER TABLE vault_item DROP COLUMN item_set")
            try db.execute(sql: "ALTER TABLE vault_item DROP COLUMN item_seq")
        }
        try raw.close()
    }
}
