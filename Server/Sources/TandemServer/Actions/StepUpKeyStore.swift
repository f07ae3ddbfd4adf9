import Foundation
import SQLKit
import TandemPlatform
import TandemProtocol

/// The users' step-up keys: one per sign-in of an app (its grant family), with the user, the
/// key's JWK and its thumbprint (RFC 7638), which step-up proofs for that sign-in must match.
/// A key is enrolled with the sign-in itself (the token request's ``StepUpKeyEnrolment``, in the
/// transaction that creates the grant) or, shortly after it, through ``APIPath/stepUpKey``.
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
        /// The key is the sign-in's DPoP key or its widgets' key: a key that signs without the
        /// user cannot stand for their presence. Nothing was stored.
        case keyInUse
    }

    /// A sign-in's step-up key, as the account page shows it.
    struct Enrolled: Sendable, Equatable {
        /// The sign-in (grant family).
        var familyID: String
        /// The key's thumbprint.
        var jkt: String
        /// When it was enrolled.
        var createdAt: Timestamp
    }

    /// Registers `key` for the sign-in `familyID` of `clientID`, unless it has a key already or
    /// the key is one of the sign-in's DPoP keys.
    func register(
        _ key: DPoPPublicKey, clientID: String, familyID: String, subject: String, now: Timestamp
    ) async throws(StorageError) -> Registration {
        try await connector.performTransaction("registering a step-up key") { database in
            try await Self.insert(key, clientID: clientID, familyID: familyID, subject: subject, now: now, in: database)
        }
    }

    /// The statements of ``register(_:clientID:familyID:subject:now:)`` on a connection already
    /// held, for the transaction that creates the sign-in.
    static func insert(
        _ key: DPoPPublicKey, clientID: String, familyID: String, subject: String, now: Timestamp, in database: any SQLDatabase
    ) async throws -> Registration {
        let jkt = key.thumbprint
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let jwk = String(decoding: try encoder.encode(key.jwk), as: UTF8.self)
        let keyInUse = try await database.raw("""
            SELECT id FROM token_families WHERE (id = \(bind: familyID) OR parent_family_id = \(bind: familyID)) AND dpop_jkt = \(bind: jkt)
            """).first()
        guard keyInUse == nil else { return .keyInUse }
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

    /// The thumbprint of the step-up key registered for the sign-in `familyID` of `clientID`,
    /// or `nil` when it has none.
    func thumbprint(clientID: String, familyID: String) async throws(StorageError) -> String? {
        try await connector.perform("reading a step-up key") { database in
            try await Self.thumbprint(clientID: clientID, familyID: familyID, in: database)
        }
    }

    /// The step-up keys of `subject`'s live sign-ins, by sign-in.
    func keys(subject: String) async throws(StorageError) -> [Enrolled] {
        try await connector.perform("reading a user's step-up keys") { database in
            try await database.raw("""
                SELECT k.family_id AS family_id, k.jkt AS jkt, k.created_at AS created_at
                FROM step_up_keys k JOIN token_families f ON f.id = k.family_id
                WHERE k.subject = \(bind: subject) AND f.revoked_at IS NULL
                ORDER BY k.created_at
                """).all().map { row in
                Enrolled(
                    familyID: try row.decode(column: "family_id", as: String.self), jkt: try row.decode(column: "jkt", as: String.self),
                    createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
            }
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
