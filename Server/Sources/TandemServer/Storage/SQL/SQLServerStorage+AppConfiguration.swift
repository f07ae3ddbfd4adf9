import Foundation
import SQLKit
import TandemProtocol

// Per-app passcode policies, stored as the JSON of ``PasscodePolicyDocument``.
extension SQLServerStorage: AppConfigurationStorage {
    /// Reads and decodes the app's stored policy.
    public func passcodePolicy(clientID: String) async throws(StorageError) -> PasscodePolicyDocument? {
        let text = try await perform("reading a passcode policy") { database in
            try await database.raw("SELECT policy FROM app_passcode_policies WHERE client_id = \(bind: clientID)")
                .first()?.decode(column: "policy", as: String.self)
        }
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(PasscodePolicyDocument.self, from: Data(text.utf8))
        } catch {
            throw .corruptRecord("passcode policy of \(clientID): \(error)")
        }
    }

    /// Upserts the policy for an existing app.
    public func setPasscodePolicy(_ policy: PasscodePolicyDocument, clientID: String, now: Timestamp) async throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text: String
        do {
            text = String(decoding: try encoder.encode(policy), as: UTF8.self)
        } catch {
            throw .corruptRecord("passcode policy of \(clientID) does not encode: \(error)")
        }
        guard try await app(clientID: clientID) != nil else { throw .notFound("app \(clientID.debugDescription)") }
        try await perform("storing a passcode policy") { database in
            try await database.raw("""
                INSERT INTO app_passcode_policies (client_id, policy, updated_at)
                VALUES (\(bind: clientID), \(bind: text), \(bind: now.milliseconds))
                ON CONFLICT (client_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at
                """).run()
        }
    }
}
