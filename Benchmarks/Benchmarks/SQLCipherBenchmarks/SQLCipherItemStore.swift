import BenchmarkData
import CSQLCipher
import Foundation

/// A key-value table in a SQLCipher database: the same table and statements as the vault
/// benchmark's plain GRDB baseline, encrypted page by page by SQLCipher instead of item by item.
///
/// Writes run in their own `BEGIN IMMEDIATE` … `COMMIT`, as the vault's writes do; reads are one
/// prepared select. The database is keyed with a raw random key (`x'…'`), so opening it derives
/// nothing and no operation pays a key derivation. Its pages are 4 KiB, SQLite's default and so
/// GRDB's (SQLCipher 3 defaults to 1 KiB).
///
/// Debian's SQLCipher 3.4 is built on SQLite 3.15, older than `ON CONFLICT … DO UPDATE`: a
/// write is an `UPDATE`, followed by an `INSERT` only when no row changed. Every measured write
/// overwrites a stored row, so each costs one statement, as the upsert does.
final class SQLCipherItemStore {
    private var db: OpaquePointer?
    private var update: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?

    /// Creates the database at `path`, keyed with a fresh random 256-bit key.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw SQLCipherError(db, "open \(path)")
        }
        let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try execute("PRAGMA key = \"x'\(key)'\"")
        // The key takes effect at the first read: check it is SQLCipher that answers.
        guard try queryText("PRAGMA cipher_version") != nil else {
            throw SQLCipherError(db, "this libsqlite3 is not SQLCipher")
        }
        try execute("PRAGMA cipher_page_size = 4096")
        try execute("PRAGMA journal_mode = \(BenchmarkDurability.journalMode)")
        try execute("PRAGMA synchronous = \(BenchmarkDurability.synchronous)")
        try execute("CREATE TABLE IF NOT EXISTS plain_item (id BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
        update = try prepare("UPDATE plain_item SET value = ? WHERE id = ?")
        insert = try prepare("INSERT INTO plain_item (value, id) VALUES (?, ?)")
        select = try prepare("SELECT value FROM plain_item WHERE id = ?")
        begin = try prepare("BEGIN IMMEDIATE TRANSACTION")
        commit = try prepare("COMMIT TRANSACTION")
    }

    /// Stores `value` under `id` in its own transaction.
    func set(_ value: Data, id: Data) throws {
        try set(CollectionOfOne((id: id, value: value)))
    }

    /// Stores every pair in one transaction.
    func set(_ pairs: some Sequence<(id: Data, value: Data)>) throws {
        try step(begin, "BEGIN")
        do {
            for pair in pairs { try store(pair.value, id: pair.id) }
            try step(commit, "COMMIT")
        } catch {
            sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func store(_ value: Data, id: Data) throws {
        try bind(value, to: update, at: 1)
        try bind(id, to: update, at: 2)
        try step(update, "update")
        if sqlite3_changes(db) == 0 {
            try bind(value, to: insert, at: 1)
            try bind(id, to: insert, at: 2)
            try step(insert, "insert")
        }
    }

    /// The value stored under `id`, or `nil`.
    func value(id: Data) throws -> Data? {
        defer { sqlite3_reset(select) }
        try bind(id, to: select, at: 1)
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            let count = Int(sqlite3_column_bytes(select, 0))
            guard count > 0, let bytes = sqlite3_column_blob(select, 0) else { return Data() }
            return Data(bytes: bytes, count: count)
        case SQLITE_DONE:
            return nil
        default:
            throw SQLCipherError(db, "select")
        }
    }

    /// Finalizes the statements and closes the database.
    func close() {
        for statement in [update, insert, select, begin, commit] { sqlite3_finalize(statement) }
        update = nil; insert = nil; select = nil; begin = nil; commit = nil
        sqlite3_close_v2(db)
        db = nil
    }

    deinit { close() }

    // MARK: - SQLite calls

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw SQLCipherError(db, sql) }
    }

    private func queryText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLCipherError(db, "prepare \(sql)")
        }
        return statement
    }

    private func bind(_ data: Data, to statement: OpaquePointer?, at index: Int32) throws {
        // SQLITE_TRANSIENT: SQLite copies the bytes, as GRDB's binding of a Data does.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let result = data.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transient)
        }
        guard result == SQLITE_OK else { throw SQLCipherError(db, "bind") }
    }

    private func step(_ statement: OpaquePointer?, _ what: String) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw SQLCipherError(db, what) }
    }
}

/// A SQLCipher call that failed, with SQLite's message.
struct SQLCipherError: Error, CustomStringConvertible {
    let description: String

    init(_ db: OpaquePointer?, _ what: String) {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "no database"
        description = "\(what): \(message)"
    }
}
