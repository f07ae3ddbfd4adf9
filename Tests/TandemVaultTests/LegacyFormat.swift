import Foundation
import GRDB
import Testing
@testable import TandemVault

/// Turns a vault into a format written before the current one.
enum LegacyFormat {
    /// Rewrites the file of `vault` (unlocked) and locks it:
    /// - `.unbound`, before item-set binding: a generation record sealed without the item-set
    ///   label, no item-set record, boxes of the value alone, and item rows without their
    ///   record column;
    /// - `.separateRecords`, the first (unreleased) form of binding: its generation label, boxes
    ///   of the value alone, and each row's record sealed apart in an `item_set` column (here a
    ///   record the current format would never accept, so that only the migration can open it).
    static func downgrade(_ vault: Vault, home: VaultFixture, to format: DataKey.ItemSetFormat = .unbound) throws {
        let dataKey = try #require(vault.state.withLock { $0.session?.dataKey })
        vault.lock()
        let raw = try home.rawDatabase()
        try raw.write { db in
            let slots = try VaultDatabase.Writer(db: db).slots()
            let sealed = try #require(try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = 'generation'"))
            let generation = try dataKey.openGeneration(sealed, slotDigest: KeySlot.digest(of: slots)).generation
            let legacy = try dataKey.sealGeneration(generation, slotDigest: KeySlot.digest(of: slots), format: format)
            try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'generation'", arguments: [legacy])
            for row in try Row.fetchAll(db, sql: "SELECT id, sealed FROM vault_item") {
                let id: Data = row[0]
                let value = try dataKey.open(row[1], itemID: id, name: "\(id)")
                try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [try dataKey.sealUnbound(value, itemID: id), id])
            }
            switch format {
            case .unbound:
                try db.execute(sql: "DELETE FROM vault_meta WHERE key = 'item-set'")
                try db.execute(sql: "ALTER TABLE vault_item DROP COLUMN item_seq")
            case .separateRecords:
                let stale = try dataKey.sealItemSet(ItemSetRecord(generation: generation, sequence: 1, digest: .empty))
                try db.execute(sql: "ALTER TABLE vault_item ADD COLUMN item_set BLOB")
                try db.execute(sql: "UPDATE vault_item SET item_set = ?, item_seq = 1000 + rowid", arguments: [stale])
                try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'item-set'", arguments: [stale])
            case .recordInBox:
                break
            }
        }
        try raw.close()
    }
}
