import Foundation
import GRDB

extension VaultDatabase {
    /// The operations available inside a transaction (writes fail in ``VaultDatabase/inspect(_:)``).
    struct Writer {
        let db: Database

        static func slotRows(_ db: Database) throws -> [Row] {
            try Row.fetchAll(db, sql: "SELECT id, kind, parameters, wrapped, checksum FROM vault_keyslot ORDER BY id")
        }

        /// The key slots as the transaction sees them.
        func slots() throws -> [KeySlot] {
            try Self.slotRows(db).map { row in try VaultDatabase.slot(from: row) }
        }

        func sealedGeneration() throws -> Data? {
            try meta("generation")
        }

        func meta(_ key: String) throws -> Data? {
            try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM vault_meta WHERE key = ?"), arguments: [key])
        }

        /// Replaces the value of `key` only if it is `expected`; says whether it did.
        func replaceMeta(_ key: String, with value: Data, ifEqualTo expected: Data) throws -> Bool {
            try db.cachedStatement(sql: "UPDATE vault_meta SET value = ? WHERE key = ? AND value = ?")
                .execute(arguments: [value, key, expected])
            return db.changesCount == 1
        }

        func setMeta(_ key: String, _ value: Data) throws {
            try db.execute(
                sql: "INSERT INTO vault_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }

        func putSlot(_ slot: KeySlot) throws {
            try db.execute(
                sql: """
                    INSERT INTO vault_keyslot (id, kind, parameters, wrapped, checksum) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, parameters = excluded.parameters,
                        wrapped = excluded.wrapped, checksum = excluded.checksum
                    """,
                arguments: [slot.id, slot.kind.rawValue, slot.parameters, slot.wrapped, slot.checksum])
        }

        func deleteSlots(kind: KeySlot.Kind, except keep: Set<String>) throws {
            let ids = try String.fetchAll(db, sql: "SELECT id FROM vault_keyslot WHERE kind = ?", arguments: [kind.rawValue])
            for id in ids where !keep.contains(id) {
                try db.execute(sql: "DELETE FROM vault_keyslot WHERE id = ?", arguments: [id])
            }
        }

        /// Stores the sealed box `sealed` under `id`, with the item-set record of this write
        /// (`sequence` in the clear, `record` sealed), or with none (`nil`) when a later write of
        /// the same transaction stores it.
        func putItem(id: Data, sealed: Data, sequence: UInt64?, record: Data?) throws {
            try db.cachedStatement(
                sql: """
                    INSERT INTO vault_item (id, sealed, item_seq, item_set) VALUES (?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET sealed = excluded.sealed, item_seq = excluded.item_seq, item_set = excluded.item_set
                    """
            ).execute(arguments: [id, sealed, sequence.map { Int64(clamping: $0) }, record])
        }

        /// Gives the stored item `id` the item-set record `record` with `sequence`.
        func setItemRecord(id: Data, sequence: UInt64, record: Data) throws {
            try db.cachedStatement(sql: "UPDATE vault_item SET item_seq = ?, item_set = ? WHERE id = ?")
                .execute(arguments: [Int64(clamping: sequence), record, id])
        }

        func sealedItem(id: Data) throws -> Data? {
            try Data.fetchOne(db.cachedStatement(sql: "SELECT sealed FROM vault_item WHERE id = ?"), arguments: [id])
        }

        /// The first 12 and the last 16 bytes of the box stored under `id` (an AES-GCM box's
        /// nonce and tag, what its item-set tag covers), without reading the rest.
        func boxEnds(id: Data) throws -> Data? {
            let statement = try db.cachedStatement(sql: "SELECT \(Self.boxEndsSQL("sealed")) FROM vault_item WHERE id = ?")
            return try Self.boxEnds(Row.fetchOne(statement, arguments: [id]))
        }

        /// SQL for a box's first 12 and last 16 bytes, as a blob: for a box shorter than
        /// 28 bytes the two overlap, as `Data.prefix` and `suffix` do.
        private static func boxEndsSQL(_ column: String) -> String {
            "CAST(substr(\(column), 1, \(DataKey.nonceByteCount)) || substr(\(column), -\(DataKey.tagByteCount)) AS BLOB)"
        }

        /// The box ends in `row`'s first column; a value of the wrong type is tampering.
        private static func boxEnds(_ row: Row?) throws -> Data? {
            guard let row else { return nil }
            do {
                return try row.decode(Data?.self, atIndex: 0)
            } catch {
                throw VaultError.tampered("the item set")
            }
        }

        /// SQLite's `PRAGMA data_version`: it changes when another connection commits.
        func dataVersion() throws -> Int {
            try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        }

        /// The item-set record kept in the item row with the highest `item_seq`, if any, with
        /// that `item_seq`. Reads every row (no index: one would cost every write a page).
        func latestItemRecord() throws -> (sequence: Int64, sealed: Data)? {
            let row = try Row.fetchOne(
                db, sql: "SELECT item_seq, item_set FROM vault_item WHERE item_seq IS NOT NULL ORDER BY item_seq DESC LIMIT 1")
            guard let row else { return nil }
            do {
                return (try row.decode(Int64.self, atIndex: 0), try row.decode(Data.self, atIndex: 1))
            } catch {
                throw VaultError.tampered("the item set")
            }
        }

        /// Calls `body` with every stored item row; a value of the wrong type is
        /// ``VaultError/tampered(_:)`` of the item set.
        func forEachItem(_ body: (StoredItem) throws -> Void) throws {
            let rows = try Row.fetchCursor(db, sql: "SELECT id, sealed, item_seq, item_set FROM vault_item")
            while let row = try rows.next() {
                let item: StoredItem
                do {
                    item = StoredItem(
                        id: try row.decode(Data.self, atIndex: 0), sealed: try row.decode(Data.self, atIndex: 1),
                        sequence: try row.decode(Int64?.self, atIndex: 2), record: try row.decode(Data?.self, atIndex: 3))
                } catch {
                    throw VaultError.tampered("the item set")
                }
                try body(item)
            }
        }

        /// Deletes the item `id` and returns the ends of its box (see ``boxEnds(id:)``), or
        /// `nil` when there was none.
        func deleteItem(id: Data) throws -> Data? {
            let statement = try db.cachedStatement(sql: "DELETE FROM vault_item WHERE id = ? RETURNING \(Self.boxEndsSQL("sealed"))")
            return try Self.boxEnds(Row.fetchOne(statement, arguments: [id]))
        }
    }

    /// One row of `vault_item` as stored.
    struct StoredItem {
        var id: Data
        var sealed: Data
        /// The sequence of the item-set record written with it (`nil` for a row written in an
        /// older format).
        var sequence: Int64?
        var record: Data?
    }
}
