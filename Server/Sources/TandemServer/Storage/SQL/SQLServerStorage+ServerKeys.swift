import Foundation
import SQLKit

// The sealed server keys: `serverKey(id:candidate:now:)` is with the other ServerStorage methods.
extension SQLServerStorage: ServerKeyStorage {
    /// `UPDATE … WHERE id = ? AND material = ?`: a concurrent replacement wins alone.
    public func replaceServerKey(id: String, expected: Data, with replacement: Data) async throws(StorageError) {
        try await perform("sealing server key \(id)") { database in
            try await database.raw("""
                UPDATE server_keys SET material = \(bind: replacement) WHERE id = \(bind: id) AND material = \(bind: expected)
                """).run()
        }
    }
}
