import Foundation
import SQLKit

// The per-app policy documents: each a JSON document in a table of its own, keyed by the app,
// read and written the same way.
extension AppStore {
    /// A table of per-app policy documents: `client_id`, `policy` (JSON, keys sorted), `updated_at`.
    enum PolicyTable: String {
        case passcode = "app_passcode_policies"

        /// What the table holds, for errors ("passcode policy").
        var what: String {
            switch self {
            case .passcode: "passcode policy"
            }
        }
    }

    /// The document `table` holds for `clientID`, or `nil` when there is none.
    ///
    /// - Throws: ``StorageError/corruptRecord(_:)`` when the stored text is not a `Document`.
    func policyDocument<Document: Decodable>(_ type: Document.Type, in table: PolicyTable, clientID: String) async throws(StorageError) -> Document? {
        let text = try await connector.perform("reading a \(table.what)") { database in
            try await database.raw("SELECT policy FROM \(unsafeRaw: table.rawValue) WHERE client_id = \(bind: clientID)")
                .first()?.decode(column: "policy", as: String.self)
        }
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(Document.self, from: Data(text.utf8))
        } catch {
            throw .corruptRecord("\(table.what) of \(clientID): \(error)")
        }
    }

    /// Stores (or replaces) `document` in `table` for an existing app.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func storePolicyDocument<Document: Encodable>(
        _ document: Document, in table: PolicyTable, clientID: String, now: Timestamp
    ) async throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text: String
        do {
            text = String(decoding: try encoder.encode(document), as: UTF8.self)
        } catch {
            throw .corruptRecord("\(table.what) of \(clientID) does not encode: \(error)")
        }
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        try await connector.perform("storing a \(table.what)") { database in
            try await database.raw("""
                INSERT INTO \(unsafeRaw: table.rawValue) (client_id, policy, updated_at)
                VALUES (\(bind: clientID), \(bind: text), \(bind: now.milliseconds))
                ON CONFLICT (client_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at
                """).run()
        }
    }
}
