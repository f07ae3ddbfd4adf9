import BenchmarkData
import Foundation
import GRDB

/// The vault's baseline: a plain GRDB key-value table configured exactly like the vault's
/// database (WAL, `synchronous = NORMAL`, writes in `BEGIN IMMEDIATE` transactions, one cached
/// upsert per write, one cached select per read), storing values in the clear. The vault's cost
/// over this is its cryptography.
struct PlainItemStore: Sendable {
    private let queue: DatabaseQueue

    /// Creates the store's database file at `url`.
    init(url: URL) throws {
        var configuration = Configuration()
        configuration.label = "tandem.bench.plain"
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(BenchmarkDurability.synchronous)")
        }
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS plain_item (id BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
        }
    }

    /// Stores `value` under `id` in its own transaction, as the vault stores one item.
    func set(_ value: Data, id: Data) throws {
        try write { db in try Self.upsert(db, value, id: id) }
    }

    /// Stores every pair in one transaction, as `Vault.write` does.
    func set(_ pairs: some Sequence<(id: Data, value: Data)>) throws {
        try write { db in
            for pair in pairs { try Self.upsert(db, pair.value, id: pair.id) }
        }
    }

    /// One transaction begun `IMMEDIATE`, as the vault's writes are.
    private func write(_ body: (Database) throws -> Void) throws {
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try body(db)
                return .commit
            }
        }
    }

    /// The value stored under `id`, or `nil`.
    func value(id: Data) throws -> Data? {
        try queue.read { db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM plain_item WHERE id = ?"), arguments: [id])
        }
    }

    /// Closes the database file.
    func close() throws {
        try queue.close()
    }

    private static func upsert(_ db: Database, _ value: Data, id: Data) throws {
        try db.cachedStatement(
            sql: "INSERT INTO plain_item (id, value) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value"
        ).execute(arguments: [id, value])
    }
}
