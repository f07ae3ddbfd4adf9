import Foundation
import SQLKit

// RFC 8693 token exchange: the statements behind ``RefreshTokenService/issueExtensionGrant(parentID:clientID:now:)``.
extension TokenStore {
    /// Creates a scoped extension grant with its first refresh token, only if its parent is a live
    /// user grant of the client, revoking the parent's previous extension grant for the audience;
    /// all in one transaction. See ``ExtensionGrantOutcome``.
    ///
    /// One transaction: the parent's row is held (PostgreSQL: `FOR UPDATE`; SQLite's
    /// `BEGIN IMMEDIATE` holds the whole database), the parent's previous extension grant for the
    /// audience is revoked, and the child is inserted by one `INSERT … SELECT` that finds the
    /// parent only while it is live, so a child of a revoked or ended parent is never written.
    func createExtensionGrant(_ request: ExtensionGrantRequest) async throws(StorageError) -> ExtensionGrantOutcome {
        let dialect = connector.dialect
        return try await connector.performTransaction("exchanging a token for an extension grant") { database in
            try await Self.createExtensionGrant(request, dialect: dialect, in: database)
        }
    }

    private static func createExtensionGrant(
        _ request: ExtensionGrantRequest, dialect: StorageDialect, in database: any SQLDatabase
    ) async throws -> ExtensionGrantOutcome {
        if dialect == .postgres {
            try await database.raw("SELECT id FROM token_families WHERE id = \(bind: request.parentID) FOR UPDATE").run()
        }
        if let jkt = request.dpopJKT, try await database.raw("""
            SELECT jkt FROM step_up_keys WHERE family_id = \(bind: request.parentID) AND jkt = \(bind: jkt)
            """).first() != nil {
            return .keyIsStepUpKey
        }
        let now = request.now.milliseconds
        let replaced = try await database.raw("""
            UPDATE token_families SET revoked_at = \(bind: now)
            WHERE parent_family_id = \(bind: request.parentID) AND audience = \(bind: request.audience) AND revoked_at IS NULL
            RETURNING id
            """).all().map { try $0.decode(column: "id", as: String.self) }
        if !replaced.isEmpty {
            try await database.raw("""
                UPDATE refresh_tokens SET successor_sealed = NULL, successor_sealed_until = NULL
                WHERE successor_sealed IS NOT NULL AND family_id IN (
                    SELECT id FROM token_families WHERE parent_family_id = \(bind: request.parentID) AND revoked_at = \(bind: now))
                """).run()
        }
        let grantExpiresAt = request.grantExpiresAt.milliseconds
        guard let row = try await database.raw("""
            INSERT INTO token_families (id, client_id, user_id, scope, audience, created_at, parent_family_id, expires_at, dpop_jkt)
            SELECT \(bind: request.familyID), p.client_id, p.user_id, \(bind: request.scope), \(bind: request.audience), \(bind: now), p.id,
                   CASE WHEN p.expires_at < \(bind: grantExpiresAt) THEN p.expires_at ELSE \(bind: grantExpiresAt) END,
                   \(bind: request.dpopJKT)
            FROM token_families p
            WHERE p.id = \(bind: request.parentID) AND p.client_id = \(bind: request.clientID) AND p.parent_family_id IS NULL
              AND p.revoked_at IS NULL AND p.expires_at > \(bind: now)
            RETURNING user_id, expires_at
            """).first()
        else { return .parentNotLive }
        let family = TokenFamily(
            id: request.familyID, clientID: request.clientID, userID: try row.decode(column: "user_id", as: String.self),
            scope: request.scope, audience: request.audience, createdAt: request.now, revokedAt: nil, parentID: request.parentID,
            expiresAt: Timestamp(milliseconds: try row.decode(column: "expires_at", as: Int64.self)), dpopJKT: request.dpopJKT)
        let tokenExpiresAt = min(request.tokenExpiresAt, family.expiresAt ?? request.tokenExpiresAt)
        try await database.raw("""
            INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at)
            VALUES (\(bind: request.tokenHash), \(bind: family.id), \(bind: now), \(bind: tokenExpiresAt.milliseconds))
            """).run()
        for proof in request.proofs {
            guard try await proof.insert(in: database) else { throw TransactionRollback(ExtensionGrantOutcome.proofReplayed) }
        }
        return .created(family, replaced: replaced)
    }
}
