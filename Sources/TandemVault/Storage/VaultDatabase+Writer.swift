import Foundation
import GRDB
import GRDBSQLite

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

        /// Stores the sealed box `sealed` under `id`, with `sequence`, the sequence of the
        /// item-set record the box carries, in the clear (the latest record is found by it).
        func putItem(id: Data, sealed: Data, sequence: UInt64) throws {
            try db.cachedStatement(
                sql: """
                    INSERT INTO vault_item (id, sealed, item_seq) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET sealed = excluded.sealed, item_seq = excluded.item_seq
                    """
            ).execute(arguments: [id, sealed, Int64(clamping: sequence)])
        }

        func sealedItem(id: Data) throws -> Data? {
            try Data.fetchOne(db.cachedStatement(sql: "SELECT sealed FROM vault_item WHERE id = ?"), arguments: [id])
        }

        /// The nonce of the box stored under `id` (its first 12 bytes, what its item-set tag
        /// covers), without reading the rest.
        func boxNonce(id: Data) throws -> Data? {
            let statement = try db.cachedStatement(sql: "SELECT \(Self.boxNonceSQL) FROM vault_item WHERE id = ?")
            return try Self.boxNonce(Row.fetchOne(statement, arguments: [id]))
        }

        /// Forgets which rows carry item-set records: for a vault being migrated to the current
        /// format, whose rows' sequences belong to records of another kind.
        func clearItemSequences() throws {
            try db.execute(sql: "UPDATE vault_item SET item_seq = NULL WHERE item_seq IS NOT NULL")
        }

        /// SQL for a box's first 12 bytes (its nonce), as a blob.
        private static let boxNonceSQL = "CAST(substr(sealed, 1, \(DataKey.nonceByteCount)) AS BLOB)"

        /// The nonce in `row`'s first column; a value of the wrong type is tampering.
        private static func boxNonce(_ row: Row?) throws -> Data? {
            guard let row else { return nil }
            do {
                return try row.decode(Data?.self, atIndex: 0)
            } catch {
                throw VaultError.tampered("the item set")
            }
        }

        /// The file's data version as this connection last saw it (`SQLITE_FCNTL_DATA_VERSION`,
        /// without a statement): it changes with every commit, this connection's or another's.
        /// Another connection's commit is seen when this one next takes a lock on the file, so
        /// read it in a transaction that has one: a write transaction (`BEGIN IMMEDIATE`, see
        /// ``VaultDatabase/write(_:)``) or a read after its first statement. Read right after
        /// this connection's own commit, it includes that commit and nothing else.
        func dataVersion() throws -> Int {
            var version: UInt32 = 0
            let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &version)
            guard code == SQLITE_OK else { throw VaultError.storage("SQLite could not report the file's data version (\(code))") }
            return Int(version)
        }

        /// The item row with the highest `item_seq`, whose box carries the latest item-set
        /// record kept in a row. Reads every row (no index: one would cost every write a page).
        func latestItem() throws -> StoredItem? {
            let row = try Row.fetchOne(
                db, sql: "SELECT id, sealed, item_seq FROM vault_item WHERE item_seq IS NOT NULL ORDER BY item_seq DESC LIMIT 1")
            guard let row else { return nil }
            return try Self.storedItem(row)
        }

        /// Calls `body` with every stored item row; a value of the wrong type is
        /// ``VaultError/tampered(_:)`` of the item set.
        func forEachItem(_ body: (StoredItem) throws -> Void) throws {
            let rows = try Row.fetchCursor(db, sql: "SELECT id, sealed, item_seq FROM vault_item")
            while let row = try rows.next() { try body(try Self.storedItem(row)) }
        }

        /// A row of `id, sealed, item_seq`; a value of the wrong type is tampering.
        private static func storedItem(_ row: Row) throws -> StoredItem {
            do {
                return StoredItem(
                    id: try row.decode(Data.self, atIndex: 0), sealed: try row.decode(Data.self, atIndex: 1),
                    sequence: try row.decode(Int64?.self, atIndex: 2))
            } catch {
                throw VaultError.tampered("the item set")
            }
        }

        /// Deletes the item `id` and returns the nonce of its box (see ``boxNonce(id:)``), or
        /// `nil` when there was none.
        func deleteItem(id: Data) throws -> Data? {
            let statement = try db.cachedStatement(sql: "DELETE FROM vault_item WHERE id = ? RETURNING \(Self.boxNonceSQL)")
            return try Self.boxNonce(Row.fetchOne(statement, arguments: [id]))
        }
    }

    /// One row of `vault_item` as stored.
    struct StoredItem {
        var id: Data
        var sealed: Data
        /// The sequence of the item-set record its box carries (`nil` for a row written in an
        /// earlier format).
        var sequence: Int64?
    }
}
