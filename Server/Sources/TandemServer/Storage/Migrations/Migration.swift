/// One versioned step of the server's schema, applied once, in its own transaction.
///
/// ```swift
/// let addWidgets = Migration(version: 7, name: "widgets") { dialect in
///     ["CREATE TABLE widgets (id TEXT PRIMARY KEY, data \(dialect.bytesType) NOT NULL)"]
/// }
/// ```
struct Migration: Sendable {
    /// The version recorded in `schema_migrations`; migrations apply in increasing order.
    let version: Int
    /// A short name for logs.
    let name: String
    /// The statements for a dialect, run in order inside the migration's transaction.
    let statements: @Sendable (StorageDialect) -> [String]

    /// Creates a migration.
    ///
    /// - Parameters:
    ///   - version: Its version; unique and increasing.
    ///   - name: A short name for logs.
    ///   - statements: The DDL to run for a dialect.
    init(version: Int, name: String, statements: @escaping @Sendable (StorageDialect) -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
