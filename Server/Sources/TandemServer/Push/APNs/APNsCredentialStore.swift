import Crypto
import Foundation
import SQLKit
import TandemPlatform

/// Each app's APNs credentials. The auth key is stored only sealed: AES-GCM under the server's
/// sealing key (itself sealed under the system secret, like the signing key), with the app and
/// key id as associated data, so a box copied onto another app's row does not open.
struct APNsCredentialStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Stores `credentials` as `clientID`'s, replacing any before.
    func store(_ credentials: APNsCredentials, clientID: String, sealingKey: Data, now: Timestamp) async throws(StorageError) {
        let sealed: Data
        do {
            sealed = try Self.seal(credentials.privateKey.rawRepresentation, clientID: clientID, keyID: credentials.keyID, sealingKey: sealingKey)
        } catch {
            throw .corruptRecord("sealing the APNs key of \(clientID) failed: \(error)")
        }
        try await connector.perform("storing APNs credentials") { database in
            try await database.raw("""
                INSERT INTO apns_credentials (client_id, key_id, team_id, bundle_id, sealed_key, updated_at)
                VALUES (\(bind: clientID), \(bind: credentials.keyID), \(bind: credentials.teamID), \(bind: credentials.bundleID),
                        \(bind: sealed), \(bind: now.milliseconds))
                ON CONFLICT (client_id) DO UPDATE SET key_id = excluded.key_id, team_id = excluded.team_id,
                    bundle_id = excluded.bundle_id, sealed_key = excluded.sealed_key, updated_at = excluded.updated_at
                """).run()
        }
    }

    /// `clientID`'s credentials, opened; `nil` when the app has none.
    ///
    /// - Throws: ``StorageError/corruptRecord(_:)`` when the key does not open (a different
    ///   sealing key, or a tampered row).
    func credentials(clientID: String, sealingKey: Data) async throws(StorageError) -> APNsCredentials? {
        let row = try await connector.perform("reading APNs credentials") { database in
            try await database.raw("""
                SELECT key_id, team_id, bundle_id, sealed_key FROM apns_credentials WHERE client_id = \(bind: clientID)
                """).first()
        }
        guard let row else { return nil }
        do {
            let keyID = try row.decode(column: "key_id", as: String.self)
            let raw = try Self.open(
                try row.decode(column: "sealed_key", as: Data.self), clientID: clientID, keyID: keyID, sealingKey: sealingKey)
            return APNsCredentials(
                keyID: keyID, teamID: try row.decode(column: "team_id", as: String.self),
                bundleID: try row.decode(column: "bundle_id", as: String.self),
                privateKey: try P256.Signing.PrivateKey(rawRepresentation: raw))
        } catch {
            throw .corruptRecord("the APNs credentials of \(clientID) do not open: \(error)")
        }
    }

    /// The key id, team id and bundle id of `clientID`'s credentials, without opening the key.
    func summary(clientID: String) async throws(StorageError) -> (keyID: String, teamID: String, bundleID: String)? {
        let row = try await connector.perform("reading APNs credentials") { database in
            try await database.raw("SELECT key_id, team_id, bundle_id FROM apns_credentials WHERE client_id = \(bind: clientID)").first()
        }
        guard let row else { return nil }
        do {
            return (try row.decode(column: "key_id", as: String.self), try row.decode(column: "team_id", as: String.self),
                    try row.decode(column: "bundle_id", as: String.self))
        } catch {
            throw .corruptRecord("apns_credentials of \(clientID): \(error)")
        }
    }

    /// Removes `clientID`'s credentials: its pushes stop.
    func remove(clientID: String) async throws(StorageError) {
        try await connector.performTransaction("removing APNs credentials") { database in
            try await database.raw("DELETE FROM apns_credentials WHERE client_id = \(bind: clientID)").run()
            try await database.raw("DELETE FROM push_outbox WHERE client_id = \(bind: clientID)").run()
        }
    }

    private static func associatedData(clientID: String, keyID: String) -> Data {
        Data("tandem.apns-key.v1:\(clientID.utf8.count):\(clientID):\(keyID)".utf8)
    }

    private static func seal(_ raw: Data, clientID: String, keyID: String, sealingKey: Data) throws -> Data {
        let box = try AES.GCM.seal(
            raw, using: SymmetricKey(data: sealingKey), authenticating: associatedData(clientID: clientID, keyID: keyID))
        guard let combined = box.combined else { throw APNsError.invalidKey("AES-GCM produced no combined box") }
        return combined
    }

    private static func open(_ sealed: Data, clientID: String, keyID: String, sealingKey: Data) throws -> Data {
        try AES.GCM.open(
            AES.GCM.SealedBox(combined: sealed), using: SymmetricKey(data: sealingKey),
            authenticating: associatedData(clientID: clientID, keyID: keyID))
    }
}
