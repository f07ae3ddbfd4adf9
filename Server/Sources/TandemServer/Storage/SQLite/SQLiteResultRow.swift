import GRDB
import SQLKit

/// One result row of a ``SQLiteSession`` query, copied out of the statement, decoded the way
/// SQLKit asks (`row.decode(column: "scope", as: String.self)`).
struct SQLiteResultRow: SQLRow {
    /// The statement's column names, in order.
    let columns: [String]
    /// The row's values, in column order.
    let values: [DatabaseValue]

    /// The column names.
    var allColumns: [String] { columns }

    /// Whether the row has `column`.
    func contains(column: String) -> Bool {
        columns.contains(column)
    }

    /// Whether `column` is `NULL`.
    func decodeNil(column: String) throws -> Bool {
        try value(column).isNull
    }

    /// The value of `column` as `D`: any type GRDB converts from a database value (`String`,
    /// `Int64`, `Int`, `Data`, `Double`, `Bool` and their optionals).
    ///
    /// - Throws: ``StorageError/corruptRecord(_:)`` when the column is missing or holds a value
    ///   that is not a `D` (a `NULL` for a non-optional, text for a number).
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let databaseValue = try value(column)
        guard let convertible = D.self as? any DatabaseValueConvertible.Type else {
            throw StorageError.corruptRecord("column \(column) cannot be read as \(D.self) from SQLite")
        }
        guard let decoded = Self.convert(databaseValue, to: convertible) as? D else {
            throw StorageError.corruptRecord("column \(column) holds \(Self.storageClass(databaseValue)), not \(D.self)")
        }
        return decoded
    }

    private func value(_ column: String) throws(StorageError) -> DatabaseValue {
        guard let index = columns.firstIndex(of: column) else { throw .corruptRecord("no column \(column) in the result") }
        return values[index]
    }

    /// SQLite's name for the kind of value (never the value: it may be a hash or a sealed box).
    private static func storageClass(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64: "an INTEGER"
        case .double: "a REAL"
        case .string: "TEXT"
        case .blob: "a BLOB"
        }
    }

    private static func convert<Value: DatabaseValueConvertible>(_ databaseValue: DatabaseValue, to type: Value.Type) -> Value? {
        Value.fromDatabaseValue(databaseValue)
    }
}
