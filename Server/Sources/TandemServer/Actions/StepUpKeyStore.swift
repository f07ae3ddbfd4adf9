import Foundation
import SQLKit
import TandemPlatform
import TandemProtocol

/// The step-up keys hosts registered (``APIPath/stepUpKey``): one per sign-in of an app (its
/// grant family), with the user, the key's JWK and its thumbprint (RFC 7638), which step-up
/// proofs for that sign-in must match.
///
/// ```swift
/// let outcome = try await database.stepUpKeys.register(key, clientID: app, familyID: family, subject: user, now: now)
/// let jkt = try await database.stepUpKeys.thumbprint(clientID: app, familyID: family)
/// ```
struct StepUpKeyStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// What ``register(_:clientID:familyID:subject:now:)`` found.
    enum Registration: Sendable, Equatable {
        /// The key is now the sign-in's step-up key.
        case registered
        /// The sign-in already had this very key.
        case alreadyRegistered
        /// The sign-in has another key, which stays.
        case conflict
    }

    /// Registers `key` for the sign-in `familyID` of `clientID`, unless it has a key already.
    func register(
        _ key: DPoPPublicKey, clientID: String, familyID: String, subject: String, now: Timestamp
    ) async throws(StorageError) -> Registration {
        let jkt = key.thumbprint
        let jwk: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            jwk = String(decoding: try encoder.encode(key.jwk), as: UTF8.self)
        } catch {
            throw .corruptRecord("a step-up key does not encode: \(error)")
        }
        return try await connector.perform("registering a step-up key") { database in
            let inserted = try await database.raw("""
                INSERT INTO step_up_keys (client_id, family_id, subject, jkt, jwk, created_at)
                VALUES (\(bind: clientID), \(bind: familyID), \(bind: subject), \(bind: jkt), \(bind: jwk), \(bind: now.milliseconds))
                ON CONFLICT (client_id, family_id) DO NOTHING
                RETURNING jkt
                """).all()
            guard inserted.isEmpty else { return .registered }
            let stored = try await Self.thumbprint(clientID: clientID, familyID: familyID, in: database)
            return stored == jkt ? .alreadyRegistered : .conflict
        }
    }

    /// The thumbprint of the step-up key registered for the sign-in `familyID` of `clientID`,
    /// or `nil` when it has none.
    func thumbprint(clientID: String, familyID: String) async throws(StorageError) -> String? {
        try await connector.perform("reading a step-up key") { database in
            try await Self.thumbprint(clientID: clientID, familyID: familyID, in: database)
        }
    }

    /// Deletes the keys of sign-ins that ended (revoked or deleted grants).
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteEndedKeys() async throws(StorageError) -> Int {
        try await connector.perform("deleting ended step-up keys") { database in
            try await database.raw("""
                DELETE FROM step_up_keys WHERE family_id NOT IN (SELECT id FROM token_families WHERE revoked_at IS NULL)
                RETURNING jkt
                """).all().count
        }
    }

    private static func thumbprint(clientID: String, familyID: String, in database: any SQLDatabase) async throws -> String? {
        try await database.raw("""
            SELECT jkt FROM step_up_keys WHERE client_id = \(bind: clientID) AND family_id = \(bind: familyID)
            """).first()?.decode(column: "jkt", as: String.self)
    }
}
