import Foundation
import SQLKit
@testable import TandemServer
import TandemServerTestSupport

/// Everything a database holds, as bytes to search for leaked secrets.
enum DatabaseContents {
    /// For SQLite the raw bytes of the database file and its WAL; for PostgreSQL the text form of
    /// every row of every table (`CAST(row AS TEXT)`, which shows BYTEA as hex).
    static func everything(in database: TestDatabase) async throws -> Data {
        switch database.location {
        case .sqlite(let path):
            var bytes = Data()
            for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                bytes.append(try Data(contentsOf: URL(fileURLWithPath: path + suffix)))
            }
            return bytes
        case .postgres:
            return try await database.withStorage { storage in
                try await storage.connector.withConnection { db in
                    var bytes = Data()
                    let tables = try await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").all()
                        .map { try $0.decode(column: "tablename", as: String.self) }
                    for table in tables {
                        for row in try await db.raw("SELECT CAST(t AS TEXT) AS line FROM \(unsafeRaw: table) t").all() {
                            bytes.append(Data(try row.decode(column: "line", as: String.self).utf8))
                        }
                    }
                    return bytes
                }
            }
        }
    }

    /// Whether `haystack` contains the UTF-8 bytes of `needle`.
    static func bytes(_ haystack: Data, contain needle: String) -> Bool {
        haystack.range(of: Data(needle.utf8)) != nil
    }
}
