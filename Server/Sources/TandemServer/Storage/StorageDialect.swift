/// The SQL dialect of the database behind the storage: the few places where SQLite and
/// PostgreSQL differ are spelled here, so every other statement is shared.
enum StorageDialect: String, Sendable {
    /// SQLite (a file, one writer at a time).
    case sqlite
    /// PostgreSQL (a server, shared by several processes).
    case postgres

    /// The column type for raw bytes: `BLOB` on SQLite, `BYTEA` on PostgreSQL.
    var bytesType: String {
        switch self {
        case .sqlite: "BLOB"
        case .postgres: "BYTEA"
        }
    }

    /// The statement that starts a write transaction. SQLite takes its write lock up front
    /// (`BEGIN IMMEDIATE`), so two writers queue instead of failing halfway through.
    var beginWriteTransaction: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }
}
