import Foundation
import SQLKit

// Revoking grants, and the recent revocations every instance's ``RevocationList`` reads.
extension TokenStore {
    /// Revokes a family and the extension grants exchanged from it: none of their tokens
    /// redeems again, and any sealed successor is erased.
    ///
    /// - Returns: The ids of the families this call revoked (none when it was revoked already).
    ///
    /// Marks the family and the extension grants exchanged from it revoked and erases their
    /// sealed successors, in one transaction.
    @discardableResult
    func revokeFamily(id: String, now: Timestamp) async throws(StorageError) -> [String] {
        try await connector.performTransaction("revoking a token family") { database in
            try await Self.revokeFamily(id: id, now: now, in: database)
        }
    }

    /// The statements of ``revokeFamily(id:now:)``, for use inside another transaction.
    ///
    /// The parent is revoked first, by a statement of its own: on PostgreSQL it waits for a
    /// token exchange holding the parent's row (see ``createExtensionGrant(_:)``), so the next
    /// statement, which starts after that exchange has committed, sees and revokes its child.
    ///
    /// - Returns: The ids of the families this call revoked.
    @discardableResult
    static func revokeFamily(id: String, now: Timestamp, in database: any SQLDatabase) async throws -> [String] {
        let parent = try await database.raw("""
            UPDATE token_families SET revoked_at = \(bind: now.milliseconds)
            WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id
            """).all()
        let children = try await database.raw("""
            UPDATE token_families SET revoked_at = \(bind: now.milliseconds)
            WHERE parent_family_id = \(bind: id) AND revoked_at IS NULL RETURNING id
            """).all()
        try await database.raw("""
            UPDATE refresh_tokens SET successor_sealed = NULL, successor_sealed_until = NULL
            WHERE successor_sealed IS NOT NULL
              AND family_id IN (SELECT id FROM token_families WHERE id = \(bind: id) OR parent_family_id = \(bind: id))
            """).run()
        return try (parent + children).map { try $0.decode(column: "id", as: String.self) }
    }

    /// The ids of the families revoked after `since`, for the ``RevocationList``.
    ///
    /// The ids of the families revoked after `since` (one range scan of `token_families_revoked`).
    func familiesRevoked(since: Timestamp) async throws(StorageError) -> [String] {
        try await connector.perform("reading recent revocations") { database in
            try await database.raw("SELECT id FROM token_families WHERE revoked_at > \(bind: since.milliseconds)").all()
                .map { try $0.decode(column: "id", as: String.self) }
        }
    }
}
