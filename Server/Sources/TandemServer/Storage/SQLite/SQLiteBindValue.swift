import GRDB

/// Turns the values SQLKit binds (`\(bind: value)`) into SQLite values for GRDB.
enum SQLiteBindValue {
    /// The SQLite value of `bind`: any type GRDB stores (`String`, `Int64`, `Int`, `Data`,
    /// `Double`, `Bool`, and their optionals, `nil` becoming `NULL`).
    ///
    /// - Throws: ``StorageError/queryFailed(operation:message:)`` for a type GRDB has no SQLite
    ///   form for; nothing is run.
    static func databaseValue(_ bind: any Encodable & Sendable) throws(StorageError) -> DatabaseValue {
        guard let convertible = bind as? any DatabaseValueConvertible else {
            throw .queryFailed(operation: "binding a value", message: "a \(type(of: bind)) cannot be bound to a SQLite statement")
        }
        return convertible.databaseValue
    }
}
