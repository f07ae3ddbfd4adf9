import Foundation
import SQLKit

/// Refresh-token families: their tokens and rotation, revocation (cascading to the extension
/// grants exchanged from a family) and the extension grants themselves.
///
/// Every method that changes more than one row does so in one transaction; every redemption is
/// one conditional update, so correctness holds across processes sharing a database. The
/// statements other stores run inside their own transaction (``insertFamilies(_:in:)``,
/// ``revokeFamily(id:now:in:)``) take the connection explicitly.
struct TokenStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Starts a token family with its first refresh token, in one transaction.
    ///
    /// - Parameters:
    ///   - family: The family to create; its app and user must exist.
    ///   - tokenHash: The first token's hash.
    ///   - expiresAt: When the first token expires.
    func createFamily(_ family: TokenFamily, tokenHash: String, expiresAt: Timestamp) async throws(StorageError) {
        try await createFamilies([FirstRefreshToken(family: family, tokenHash: tokenHash, expiresAt: expiresAt)])
    }

    /// Starts many families at once (one transaction), each with its first refresh token.
    func createFamilies(_ entries: [FirstRefreshToken]) async throws(StorageError) {
        guard !entries.isEmpty else { return }
        try await connector.performTransaction("creating token families") { database in
            try await Self.insertFamilies(entries, in: database)
        }
    }

    /// The statements of ``createFamilies(_:)``, for use inside another transaction.
    static func insertFamilies(_ entries: [FirstRefreshToken], in database: any SQLDatabase) async throws {
        var families = database.insert(into: "token_families")
            .columns("id", "client_id", "user_id", "scope", "audience", "created_at", "parent_family_id", "expires_at", "dpop_jkt")
        var tokens = database.insert(into: "refresh_tokens").columns("token_hash", "family_id", "issued_at", "expires_at")
        for entry in entries {
            let family = entry.family
            families = families.values(
                SQLBind(family.id), SQLBind(family.clientID), SQLBind(family.userID), SQLBind(family.scope),
                SQLBind(family.audience), SQLBind(family.createdAt.milliseconds), SQLBind(family.parentID),
                SQLBind((family.expiresAt ?? entry.expiresAt).milliseconds), SQLBind(family.dpopJKT))
            tokens = tokens.values(
                SQLBind(entry.tokenHash), SQLBind(family.id), SQLBind(family.createdAt.milliseconds),
                SQLBind(min(entry.expiresAt, family.expiresAt ?? entry.expiresAt).milliseconds))
        }
        try await families.run()
        try await tokens.run()
    }

    /// Tries to rotate the presented token; see ``RotationOutcome`` for what can happen.
    ///
    /// The winner is decided by one conditional update (`rotated_at IS NULL`, unexpired, family
    /// live, right client, and — for a grant bound to a DPoP key — a proof made by that key), and
    /// inserts the successor in the same transaction. A loser reads the
    /// sealed successor if the grace window is still open, and erases it if the window has passed.
    ///
    /// One statement decides the winner: the conditional update marks the token rotated and a
    /// trigger inserts the successor (migration 2), atomically and without a read first. The same
    /// statement keeps the grant bounded: the successor expires no later than the family
    /// (migration 7), and an extension grant rotates only while its parent is live. With a DPoP
    /// proof the statement also names the proof, rotates only while it is unseen, and a trigger
    /// records it (migration 23): a proof is spent exactly when its request is granted, still in
    /// one statement, so SQLite's writer shares its commit with others. A request without a proof
    /// runs a statement of its own that names none and rotates only a bearer grant's token: it
    /// neither binds the proof columns nor fires their trigger. Only a loser pays for a
    /// transaction, to read why it lost. A bearer grant whose app requires DPoP
    /// (``RefreshTokenRotation/bindsBearerGrant``) is then bound to the proof's key, with the
    /// binding's time.
    func rotate(_ rotation: RefreshTokenRotation) async throws(StorageError) -> RotationOutcome {
        let won = try await connector.perform("redeeming a refresh token") { database in
            if rotation.proof == nil {
                try await Self.rotateBearerStatement(rotation, in: database)
            } else {
                try await Self.rotateStatement(rotation, in: database)
            }
        }
        if var won {
            if won.dpopJKT == nil, rotation.bindsBearerGrant, let proof = rotation.proof {
                // A bearer grant stays bearer unless its app requires DPoP: binding it to whoever
                // refreshes first would hand the grant to a thief who does.
                let familyID = won.id
                try await connector.perform("binding a grant to a DPoP key") { database in
                    try await database.raw("""
                        UPDATE token_families SET dpop_jkt = \(bind: proof.jkt), dpop_bound_at = \(bind: rotation.now.milliseconds)
                        WHERE id = \(bind: familyID) AND dpop_jkt IS NULL
                        """).run()
                }
                won.dpopJKT = proof.jkt
                won.dpopBoundAt = rotation.now
            }
            return .rotated(won)
        }
        return try await connector.performTransaction("explaining a refused refresh token") { database in
            let outcome = try await Self.explainLoss(rotation, in: database)
            if case .alreadyRotated(let family, _?) = outcome, family.dpopJKT != nil, let proof = rotation.proof {
                guard try await proof.insert(in: database) else { return RotationOutcome.proofReplayed }
            }
            return outcome
        }
    }

    /// The conditional update that rotates the presented token of a bearer grant, for a request
    /// without a DPoP proof, on a connection already held; the family when it won, `nil` when it
    /// matched nothing (a bound grant's token among others: ``explainLoss(_:in:)`` says why).
    private static func rotateBearerStatement(_ rotation: RefreshTokenRotation, in database: any SQLDatabase) async throws -> TokenFamily? {
        let now = rotation.now.milliseconds
        let successorExpiresAt = rotation.successorExpiresAt.milliseconds
        return try await database.raw("""
            UPDATE refresh_tokens
            SET rotated_at = \(bind: now), successor_hash = \(bind: rotation.successorHash),
                successor_sealed = \(bind: rotation.sealedSuccessor),
                successor_sealed_until = \(bind: rotation.sealedSuccessor == nil ? nil : rotation.sealedUntil.milliseconds),
                successor_expires_at = (
                    SELECT CASE WHEN f.expires_at < \(bind: successorExpiresAt) THEN f.expires_at ELSE \(bind: successorExpiresAt) END
                    FROM token_families f WHERE f.id = refresh_tokens.family_id)
            WHERE token_hash = \(bind: rotation.presentedHash) AND rotated_at IS NULL AND expires_at > \(bind: now)
              AND EXISTS (SELECT 1 FROM token_families f WHERE f.id = refresh_tokens.family_id
                          AND f.revoked_at IS NULL AND f.client_id = \(bind: rotation.clientID) AND f.expires_at > \(bind: now)
                          AND f.dpop_jkt IS NULL
                          AND (f.parent_family_id IS NULL OR EXISTS (
                              SELECT 1 FROM token_families p WHERE p.id = f.parent_family_id
                              AND p.revoked_at IS NULL AND p.expires_at > \(bind: now))))
            RETURNING family_id,
                (SELECT user_id FROM token_families f WHERE f.id = refresh_tokens.family_id) AS user_id,
                (SELECT scope FROM token_families f WHERE f.id = refresh_tokens.family_id) AS scope,
                (SELECT audience FROM token_families f WHERE f.id = refresh_tokens.family_id) AS audience,
                (SELECT created_at FROM token_families f WHERE f.id = refresh_tokens.family_id) AS family_created_at,
                (SELECT parent_family_id FROM token_families f WHERE f.id = refresh_tokens.family_id) AS parent_family_id,
                (SELECT expires_at FROM token_families f WHERE f.id = refresh_tokens.family_id) AS family_expires_at,
                (SELECT dpop_jkt FROM token_families f WHERE f.id = refresh_tokens.family_id) AS dpop_jkt
            """).first()
            .map { row in try rotatedFamily(row, clientID: rotation.clientID) }
    }

    /// The conditional update that rotates the presented token for a request with a DPoP proof,
    /// and spends the proof, on a connection already held; the family when it won, `nil` when it
    /// matched nothing.
    private static func rotateStatement(_ rotation: RefreshTokenRotation, in database: any SQLDatabase) async throws -> TokenFamily? {
        let now = rotation.now.milliseconds
        let successorExpiresAt = rotation.successorExpiresAt.milliseconds
        return try await database.raw("""
            UPDATE refresh_tokens
            SET rotated_at = \(bind: now), successor_hash = \(bind: rotation.successorHash),
                successor_sealed = \(bind: rotation.sealedSuccessor),
                successor_sealed_until = \(bind: rotation.sealedSuccessor == nil ? nil : rotation.sealedUntil.milliseconds),
                successor_expires_at = (
                    SELECT CASE WHEN f.expires_at < \(bind: successorExpiresAt) THEN f.expires_at ELSE \(bind: successorExpiresAt) END
                    FROM token_families f WHERE f.id = refresh_tokens.family_id),
                rotation_proof_jkt = \(bind: rotation.proof?.jkt), rotation_proof_jti = \(bind: rotation.proof?.jti),
                rotation_proof_expires_at = \(bind: rotation.proof?.expiresAt.milliseconds)
            WHERE token_hash = \(bind: rotation.presentedHash) AND rotated_at IS NULL AND expires_at > \(bind: now)
              AND (CAST(\(bind: rotation.proof?.jti) AS TEXT) IS NULL OR NOT EXISTS (
                  SELECT 1 FROM dpop_proofs d WHERE d.jkt = \(bind: rotation.proof?.jkt) AND d.jti = \(bind: rotation.proof?.jti)))
              AND EXISTS (SELECT 1 FROM token_families f WHERE f.id = refresh_tokens.family_id
                          AND f.revoked_at IS NULL AND f.client_id = \(bind: rotation.clientID) AND f.expires_at > \(bind: now)
                          AND (f.dpop_jkt IS NULL OR f.dpop_jkt = \(bind: rotation.proofJKT))
                          AND (f.parent_family_id IS NULL OR EXISTS (
                              SELECT 1 FROM token_families p WHERE p.id = f.parent_family_id
                              AND p.revoked_at IS NULL AND p.expires_at > \(bind: now))))
            RETURNING family_id,
                (SELECT user_id FROM token_families f WHERE f.id = refresh_tokens.family_id) AS user_id,
                (SELECT scope FROM token_families f WHERE f.id = refresh_tokens.family_id) AS scope,
                (SELECT audience FROM token_families f WHERE f.id = refresh_tokens.family_id) AS audience,
                (SELECT created_at FROM token_families f WHERE f.id = refresh_tokens.family_id) AS family_created_at,
                (SELECT parent_family_id FROM token_families f WHERE f.id = refresh_tokens.family_id) AS parent_family_id,
                (SELECT expires_at FROM token_families f WHERE f.id = refresh_tokens.family_id) AS family_expires_at,
                (SELECT dpop_jkt FROM token_families f WHERE f.id = refresh_tokens.family_id) AS dpop_jkt
            """).first()
            .map { row in try rotatedFamily(row, clientID: rotation.clientID) }
    }

    /// The family a winning rotation statement returned, for `clientID` (which it matched).
    private static func rotatedFamily(_ row: any SQLRow, clientID: String) throws -> TokenFamily {
        TokenFamily(
            id: try row.decode(column: "family_id", as: String.self), clientID: clientID,
            userID: try row.decode(column: "user_id", as: String.self),
            scope: try row.decode(column: "scope", as: String.self),
            audience: try row.decode(column: "audience", as: String.self),
            createdAt: Timestamp(milliseconds: try row.decode(column: "family_created_at", as: Int64.self)),
            revokedAt: nil, parentID: try row.decode(column: "parent_family_id", as: String?.self),
            expiresAt: try row.decode(column: "family_expires_at", as: Int64?.self).map(Timestamp.init(milliseconds:)),
            dpopJKT: try row.decode(column: "dpop_jkt", as: String?.self))
    }

    /// Why the conditional update matched nothing, read after it (under the same transaction).
    private static func explainLoss(_ rotation: RefreshTokenRotation, in database: any SQLDatabase) async throws -> RotationOutcome {
        let now = rotation.now.milliseconds
        guard let row = try await database.raw("""
            SELECT family_id, issued_at, expires_at, rotated_at, successor_sealed, successor_sealed_until
            FROM refresh_tokens WHERE token_hash = \(bind: rotation.presentedHash)
            """).first()
        else { return .unknown }
        let familyID = try row.decode(column: "family_id", as: String.self)
        guard let family = try await family(id: familyID, in: database) else { return .unknown }
        guard family.clientID == rotation.clientID else { return .wrongClient }
        if let bound = family.dpopJKT, bound != rotation.proofJKT {
            // A token from before the grant was bound, presented without the key it was bound to:
            // the binder and the holder of the old token cannot both own the grant. Reuse.
            if family.revokedAt == nil, let boundAt = family.dpopBoundAt,
               try row.decode(column: "issued_at", as: Int64.self) < boundAt.milliseconds {
                return .reusedBeforeBinding(family)
            }
            // Otherwise, before anything else is said or done: without the grant's key, a token
            // (stolen, or already spent) neither revokes its grant nor learns its state.
            return .keyMismatch
        }
        if let proof = rotation.proof, try await database.raw("""
            SELECT jti FROM dpop_proofs WHERE jkt = \(bind: proof.jkt) AND jti = \(bind: proof.jti)
            """).first() != nil {
            return .proofReplayed
        }
        guard family.revokedAt == nil else { return .familyRevoked }
        if try row.decode(column: "rotated_at", as: Int64?.self) != nil {
            let sealed = try row.decode(column: "successor_sealed", as: Data?.self)
            let sealedUntil = try row.decode(column: "successor_sealed_until", as: Int64?.self)
            if let sealed, let sealedUntil, sealedUntil > now {
                return .alreadyRotated(family: family, sealedSuccessor: sealed)
            }
            if sealed != nil {
                try await database.raw("""
                    UPDATE refresh_tokens SET successor_sealed = NULL, successor_sealed_until = NULL
                    WHERE token_hash = \(bind: rotation.presentedHash)
                    """).run()
            }
            return .alreadyRotated(family: family, sealedSuccessor: nil)
        }
        return .expired
    }

    /// Erases every sealed successor whose grace window ended at or before `now`.
    ///
    /// - Returns: How many were erased.
    ///
    /// Nulls every sealed successor whose window has ended.
    @discardableResult
    func eraseExpiredSealedSuccessors(now: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("erasing expired sealed successors") { database in
            try await database.raw("""
                UPDATE refresh_tokens SET successor_sealed = NULL, successor_sealed_until = NULL
                WHERE successor_sealed IS NOT NULL AND successor_sealed_until <= \(bind: now.milliseconds)
                RETURNING token_hash
                """).all().count
        }
    }

    /// The family a token (by hash) belongs to, or `nil` for an unknown token.
    func family(ofTokenHash tokenHash: String) async throws(StorageError) -> TokenFamily? {
        try await connector.perform("reading a token family") { database in
            guard let row = try await database.raw("SELECT family_id FROM refresh_tokens WHERE token_hash = \(bind: tokenHash)").first() else {
                return nil
            }
            return try await Self.family(id: try row.decode(column: "family_id", as: String.self), in: database)
        }
    }

    /// A refresh token's state (by hash), or `nil` for an unknown token.
    func refreshTokenStatus(hash: String) async throws(StorageError) -> RefreshTokenStatus? {
        try await connector.perform("reading a refresh token") { database in
            guard let row = try await database.raw("""
                SELECT family_id, issued_at, expires_at, rotated_at FROM refresh_tokens WHERE token_hash = \(bind: hash)
                """).first(),
                let family = try await Self.family(id: try row.decode(column: "family_id", as: String.self), in: database)
            else { return nil }
            return RefreshTokenStatus(
                family: family,
                issuedAt: Timestamp(milliseconds: try row.decode(column: "issued_at", as: Int64.self)),
                expiresAt: Timestamp(milliseconds: try row.decode(column: "expires_at", as: Int64.self)),
                isRotated: try row.decode(column: "rotated_at", as: Int64?.self) != nil)
        }
    }

    /// The family with this id, or `nil`.
    func family(id: String) async throws(StorageError) -> TokenFamily? {
        try await connector.perform("reading a token family") { database in try await Self.family(id: id, in: database) }
    }

    static func family(id: String, in database: any SQLDatabase) async throws -> TokenFamily? {
        try await database.raw("""
            SELECT id, client_id, user_id, scope, audience, created_at, revoked_at, parent_family_id, expires_at, dpop_jkt,
                   dpop_bound_at
            FROM token_families WHERE id = \(bind: id)
            """).first().map { row in
            TokenFamily(
                id: try row.decode(column: "id", as: String.self),
                clientID: try row.decode(column: "client_id", as: String.self),
                userID: try row.decode(column: "user_id", as: String.self),
                scope: try row.decode(column: "scope", as: String.self),
                audience: try row.decode(column: "audience", as: String.self),
                createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)),
                revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(Timestamp.init(milliseconds:)),
                parentID: try row.decode(column: "parent_family_id", as: String?.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64?.self).map(Timestamp.init(milliseconds:)),
                dpopJKT: try row.decode(column: "dpop_jkt", as: String?.self),
                dpopBoundAt: try row.decode(column: "dpop_bound_at", as: Int64?.self).map(Timestamp.init(milliseconds:)))
        }
    }
}
