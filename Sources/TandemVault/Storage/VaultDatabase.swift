import Foundation
import GRDB

/// The vault file: a SQLite database (GRDB) holding sealed items, wrapped data keys and a few
/// non-secret facts. Nothing in it is readable without a key slot's secret.
///
/// Tables:
/// - `vault_meta(key, value)`: `store-id`, `format-version`, `mode`, and, sealed, `generation`
///   and `item-set` (the digest of every item, ``ItemSetRecord``).
/// - `vault_keyslot(id, kind, parameters, wrapped, checksum)`: one row per way in.
/// - `vault_item(id, sealed, item_seq)`: `id` = HMAC(index key, name), `sealed` = AES-GCM box
///   of the value and of the item-set record of the write that stored it (``ItemSetRecord``),
///   `item_seq` = that record's sequence. (A file of the first, unreleased form of binding also
///   has an `item_set` column, no longer used.)
final class VaultDatabase: Sendable {
    let queue: DatabaseQueue

    enum Mode: String, Sendable {
        case passcode
        case device
    }

    /// Opens the vault file at `url`, or creates an empty one when `create` is true.
    init(url: URL, create: Bool) throws(VaultError) {
        if !create && !FileManager.default.fileExists(atPath: url.path) { throw .notCreated }
        var configuration = Configuration()
        configuration.label = "tandem.vault"
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in
            // WAL with NORMAL sync survives a killed process; generation changes switch to
            // FULL for their own transaction (see `durableWrite`).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            if create {
                try queue.write { db in
                    try db.execute(sql: """
                        CREATE TABLE IF NOT EXISTS vault_meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                        CREATE TABLE IF NOT EXISTS vault_keyslot (
                            id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL,
                            parameters BLOB NOT NULL, wrapped BLOB NOT NULL, checksum BLOB NOT NULL);
                        CREATE TABLE IF NOT EXISTS vault_item (
                            id BLOB PRIMARY KEY NOT NULL, sealed BLOB NOT NULL, item_seq INTEGER);
                        """)
                }
            } else {
                let (tables, itemColumns) = try queue.read { db in
                    let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                    return (tables, tables.contains("vault_item") ? try db.columns(in: "vault_item").map(\.name) : [])
                }
                // No table at all: a creation killed before its first transaction committed.
                if tables.isEmpty { throw VaultError.notCreated }
                guard tables.isSuperset(of: ["vault_meta", "vault_keyslot", "vault_item"]) else {
                    throw VaultError.corrupt("the file is not a Tandem vault")
                }
                if !itemColumns.contains("item_seq") { try Self.addItemSequenceColumn(queue) }
            }
        } catch {
            throw Self.map(error)
        }
    }

    /// Gives a file written before item-set records were kept in item rows their `item_seq`
    /// column.
    private static func addItemSequenceColumn(_ queue: DatabaseQueue) throws {
        try queue.write { db in try db.execute(sql: "ALTER TABLE vault_item ADD COLUMN item_seq INTEGER") }
    }

    // MARK: - Reads

    /// The facts every operation needs before any key: store id and mode.
    func header() throws(VaultError) -> (storeID: Data, mode: Mode) {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM vault_meta WHERE key IN ('store-id', 'mode', 'format-version')")
        }
        var meta: [String: Data] = [:]
        do {
            for row in rows { meta[try row.decode(String.self, forColumn: "key")] = try row.decode(Data.self, forColumn: "value") }
        } catch {
            throw .corrupt("the vault header has values of the wrong type")
        }
        guard let storeID = meta["store-id"], storeID.count == 16,
            let modeData = meta["mode"], let mode = Mode(rawValue: String(decoding: modeData, as: UTF8.self)),
            meta["format-version"] == Data([DataKey.formatVersion])
        else {
            if meta["mode"] == nil { throw VaultError.notCreated }
            throw VaultError.corrupt("the vault header is missing or unknown")
        }
        return (storeID, mode)
    }

    func slot(id: String) throws(VaultError) -> KeySlot? {
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT id, kind, parameters, wrapped, checksum FROM vault_keyslot WHERE id = ?", arguments: [id])
        }
        return try row.map(Self.slot(from:))
    }

    func slots() throws(VaultError) -> [KeySlot] {
        let rows = try read { db in try Writer.slotRows(db) }
        var slots: [KeySlot] = []
        for row in rows { slots.append(try Self.slot(from: row)) }
        return slots
    }

    /// The ids of the paired-key slots, without checking their contents.
    func pairedSlotIDs() throws(VaultError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM vault_keyslot WHERE kind = 'paired' ORDER BY id") }
    }

    func sealedGeneration() throws(VaultError) -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = 'generation'") }
    }

    func sealedItem(id: Data) throws(VaultError) -> Data? {
        try read { db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT sealed FROM vault_item WHERE id = ?"), arguments: [id])
        }
    }

    /// Runs `body` in one read-only transaction: it sees one state of the file.
    func inspect<T>(_ body: (Writer) throws -> T) throws(VaultError) -> T {
        try read { db in try body(Writer(db: db)) }
    }

    // MARK: - Writes

    /// Writes items in one ordinary transaction, begun `IMMEDIATE`: the file's write lock is
    /// taken first, so ``Writer/dataVersion()`` already counts every other connection's commit.
    ///
    /// - Returns: What `body` returned, and the file's data version right after the commit
    ///   (this write included).
    func write<T>(_ body: (Writer) throws -> T) throws(VaultError) -> (T, dataVersion: Int) {
        do {
            return try queue.writeWithoutTransaction { db in try Self.committing(db, body) }
        } catch {
            throw Self.map(error)
        }
    }

    /// Writes in one transaction (begun `IMMEDIATE`, as ``write(_:)``) that is on disk (not only
    /// in the WAL's page cache) when this returns, because the device's generation record is
    /// updated right after it.
    ///
    /// - Returns: What `body` returned, and the file's data version right after the commit
    ///   (this write included).
    func durableWrite<T>(_ body: (Writer) throws -> T) throws(VaultError) -> (T, dataVersion: Int) {
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
                return try Self.committing(db, body)
            }
        } catch {
            throw Self.map(error)
        }
    }

    /// Runs `body` in one `IMMEDIATE` transaction and commits it; returns what it returned and
    /// the data version that counts the commit.
    private static func committing<T>(_ db: Database, _ body: (Writer) throws -> T) throws -> (T, dataVersion: Int) {
        var result: T?
        try db.inTransaction(.immediate) {
            result = try body(Writer(db: db))
            return .commit
        }
        guard let result else { throw VaultError.storage("the write transaction returned no result") }
        return (result, try Writer(db: db).dataVersion())
    }

    // MARK: - Helpers

    private func read<T>(_ body: (Database) throws -> T) throws(VaultError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.map(error)
        }
    }

    static func slot(from row: Row) throws(VaultError) -> KeySlot {
        // `decode` throws on a value of the wrong type, where a subscript would trap.
        let fields: (String, String, Data, Data, Data)
        do {
            fields = (
                try row.decode(String.self, forColumn: "id"), try row.decode(String.self, forColumn: "kind"),
                try row.decode(Data.self, forColumn: "parameters"), try row.decode(Data.self, forColumn: "wrapped"),
                try row.decode(Data.self, forColumn: "checksum"))
        } catch {
            throw .tampered("a key slot")
        }
        return try KeySlot.stored(id: fields.0, kind: fields.1, parameters: fields.2, wrapped: fields.3, checksum: fields.4)
    }

    static func map(_ error: any Error) -> VaultError {
        if let error = error as? VaultError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
                return .corrupt(error.message ?? "database file is damaged")
            default:
                return .storage("\(error.resultCode): \(error.message ?? "")")
            }
        }
        return .storage("\(error)")
    }
}
