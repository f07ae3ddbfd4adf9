import Foundation
import SQLKit
import TandemProtocol

// An app's action policy, kept beside its passcode policy.
extension AppStore {
    /// The action policy stored for an app, or `nil` when it uses ``ActionPolicyDocument/default``.
    func actionPolicy(clientID: String) async throws(StorageError) -> ActionPolicyDocument? {
        let text = try await connector.perform("reading an action policy") { database in
            try await database.raw("SELECT policy FROM app_action_policies WHERE client_id = \(bind: clientID)")
                .first()?.decode(column: "policy", as: String.self)
        }
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(ActionPolicyDocument.self, from: Data(text.utf8))
        } catch {
            throw .corruptRecord("action policy of \(clientID): \(error)")
        }
    }

    /// Stores (or replaces) an app's action policy.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setActionPolicy(_ policy: ActionPolicyDocument, clientID: String, now: Timestamp) async throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text: String
        do {
            text = String(decoding: try encoder.encode(policy), as: UTF8.self)
        } catch {
            throw .corruptRecord("action policy of \(clientID) does not encode: \(error)")
        }
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        try await connector.perform("storing an action policy") { database in
            try await database.raw("""
                INSERT INTO app_action_policies (client_id, policy, updated_at)
                VALUES (\(bind: clientID), \(bind: text), \(bind: now.milliseconds))
                ON CONFLICT (client_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at
                """).run()
        }
    }
}
