import Foundation
import SQLKit

/// Where ``ServerKeys`` keeps the server's sealed keys.
struct ServerKeyStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// The key material stored under `id`, storing `candidate` first if there is none yet.
    ///
    /// When several processes start at once, all of them get the one value that was stored first.
    func serverKey(id: String, candidate: Data, now: Timestamp) async throws(StorageError) -> Data {
        try await connector.perform("reading server key \(id)") { database in
            try await database.raw("""
                INSERT INTO server_keys (id, material, created_at) VALUES (\(bind: id), \(bind: candidate), \(bind: now.milliseconds))
                ON CONFLICT (id) DO NOTHING
                """).run()
            guard let row = try await database.raw("SELECT material FROM server_keys WHERE id = \(bind: id)").first() else {
                throw StorageError.corruptRecord("server key \(id) vanished after being stored")
            }
            return try row.decode(column: "material", as: Data.self)
        }
    }

    /// Replaces the material under `id` with `replacement` if it is still `expected` (one
    /// conditional update); does nothing otherwise.
    ///
    /// `UPDATE … WHERE id = ? AND material = ?`: a concurrent replacement wins alone.
    func replaceServerKey(id: String, expected: Data, with replacement: Data) async throws(StorageError) {
        try await connector.perform("sealing server key \(id)") { database in
            try await database.raw("""
                UPDATE server_keys SET material = \(bind: replacement) WHERE id = \(bind: id) AND material = \(bind: expected)
                """).run()
        }
    }
}
