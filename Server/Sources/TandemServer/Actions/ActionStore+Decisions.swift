import Foundation
import SQLKit
import TandemPlatform
import TandemProtocol

// Decisions and the answers kept for idempotency keys.
extension ActionStore {
    /// An idempotency key as one user of one app used it, and the fingerprint of the request
    /// that carried it.
    struct Claim: Sendable, Equatable {
        /// The app.
        var clientID: String
        /// The user.
        var subject: String
        /// The request's idempotency key.
        var key: String
        /// ``ItemActionRequest/fingerprint`` of the request.
        var fingerprint: String
    }

    /// What ``decide(_:action:claim:now:)`` did.
    enum DecisionOutcome: Sendable, Equatable {
        /// The item was decided; the answer is stored under the key.
        case decided(ItemActionResultDocument)
        /// The key already had an answer (a repeat, or a different request: compare the
        /// fingerprints); nothing was changed.
        case answered(StoredActionAnswer)
        /// The item changed since it was read (another decision, a new version from its
        /// resource server); nothing was changed or stored. The item as it is now.
        case itemChanged(ActionableItem)
        /// The item is gone; nothing was changed or stored.
        case itemGone
        /// A request with the same key holds it and has not finished; nothing was changed.
        case inProgress
    }

    /// The answer kept for `claim`'s key within ``idempotencyWindow`` of `now`, if any.
    func answer(for claim: Claim, now: Timestamp) async throws(StorageError) -> StoredActionAnswer? {
        let since = now.adding(.zero - Self.idempotencyWindow)
        return try await connector.perform("reading an idempotency key's answer") { database in
            try await Self.answer(for: claim, since: since, in: database)
        }
    }

    /// Keeps `answer` (a refusal that depends on the item: `409`, `412`) for `claim`'s key,
    /// unless the key already has one.
    ///
    /// - Returns: The answer that stands for the key — `answer`, or the one kept before — and
    ///   whether it is the one kept before.
    func record(_ answer: StoredActionAnswer, for claim: Claim, now: Timestamp) async throws(StorageError) -> (answer: StoredActionAnswer, replayed: Bool) {
        let since = now.adding(.zero - Self.idempotencyWindow)
        return try await connector.performTransaction("keeping an idempotency key's answer") { database in
            if try await Self.claim(claim, answer: answer, now: now, since: since, in: database) { return (answer, false) }
            guard let kept = try await Self.answer(for: claim, since: since, in: database) else {
                throw StorageError.queryFailed(operation: "keeping an idempotency key's answer", message: "the key is taken but has no answer")
            }
            return (kept, true)
        }
    }

    /// Decides `item` in one transaction: takes `claim`'s key, updates the item's row (if it is
    /// still exactly as read) with its new `Status`, `DecidedBy`, `DecidedAt` and `ETag`, moves
    /// the set's version, appends the change feed row, owes the pushes (as
    /// ``BusinessDataStore/replace(destination:title:name:rows:now:)`` does) and keeps the
    /// answer under the key.
    ///
    /// Two requests with the same key never both execute: the key is taken first, and a second
    /// transaction taking it waits for the first (PostgreSQL's unique index; SQLite's single
    /// writer) and then finds its answer (``DecisionOutcome/answered(_:)``). Two requests with
    /// different keys for the same version of the item: the row is updated only where it is
    /// still the version read, so the second finds it changed (``DecisionOutcome/itemChanged(_:)``).
    func decide(_ item: ActionableItem, action: ItemAction, claim: Claim, now: Timestamp) async throws(StorageError) -> DecisionOutcome {
        var row = item.row
        row[ItemActionRules.statusField] = .string(action.decidedStatus)
        row[ItemActionRules.decidedByField] = .string(claim.subject)
        row[ItemActionRules.decidedAtField] = .string(ISO8601Time.string(from: now.date))
        let etag: String
        let json: String
        do {
            etag = try ItemActionRules.itemTag(row: row)
            row[ItemActionRules.etagField] = .string(etag)
            json = try ActionableRows.canonical(row)
        } catch {
            throw .corruptRecord("item \(item.address) does not encode: \(error)")
        }
        let document = ItemActionResultDocument(
            item.address, action: action, status: action.decidedStatus,
            etag: etag, decidedAt: ISO8601Time.string(from: now.date))
        let answer = StoredActionAnswer(fingerprint: claim.fingerprint, statusCode: 200, body: try Self.json(document), etag: etag)
        let since = now.adding(.zero - Self.idempotencyWindow)
        let (destination, entitySet, itemID) = (item.address.destination, item.address.entitySet, item.address.item)
        return try await connector.performTransaction("deciding an item") { database in
            guard try await Self.claim(claim, answer: answer, now: now, since: since, in: database) else {
                guard let kept = try await Self.answer(for: claim, since: since, in: database) else { return .inProgress }
                return .answered(kept)
            }
            let updated = try await database.raw("""
                UPDATE entity_rows SET data = \(bind: json)
                WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet) AND item_id = \(bind: itemID)
                  AND data = \(bind: item.json)
                RETURNING position
                """).all()
            guard !updated.isEmpty else {
                try await Self.release(claim, in: database)
                guard let current = try await Self.itemJSON(at: item.address, in: database) else {
                    return .itemGone
                }
                return .itemChanged(try Self.item(at: item.address, json: current))
            }
            let rows = try await database.raw("""
                SELECT data FROM entity_rows WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet) ORDER BY position
                """).all().map { try $0.decode(column: "data", as: String.self) }
            let version = BusinessDataStore.contentHash(of: rows)
            try await database.raw("""
                UPDATE entity_sets SET content_hash = \(bind: version), updated_at = \(bind: now.milliseconds)
                WHERE destination = \(bind: destination) AND name = \(bind: entitySet)
                """).run()
            try await BusinessDataStore.recordChange(
                destination: destination, entitySet: entitySet, version: version, rows: rows, actionable: true, now: now, in: database)
            return .decided(document)
        }
    }

    /// Deletes the answers older than ``idempotencyWindow`` at `now`.
    ///
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteExpiredAnswers(now: Timestamp) async throws(StorageError) -> Int {
        let before = now.adding(.zero - Self.idempotencyWindow)
        return try await connector.perform("deleting old idempotency answers") { database in
            try await database.raw("DELETE FROM action_decisions WHERE created_at < \(bind: before.milliseconds) RETURNING idempotency_key").all().count
        }
    }

    // MARK: - Statements

    /// Takes `claim`'s key with `answer`, after forgetting an answer of the key older than
    /// `since`; `false` when the key is taken (once the transaction holding it has finished).
    private static func claim(
        _ claim: Claim, answer: StoredActionAnswer, now: Timestamp, since: Timestamp, in database: any SQLDatabase
    ) async throws -> Bool {
        try await database.raw("""
            DELETE FROM action_decisions
            WHERE client_id = \(bind: claim.clientID) AND subject = \(bind: claim.subject) AND idempotency_key = \(bind: claim.key)
              AND created_at < \(bind: since.milliseconds)
            """).run()
        return try await !database.raw("""
            INSERT INTO action_decisions (client_id, subject, idempotency_key, fingerprint, status_code, body, etag, created_at)
            VALUES (\(bind: claim.clientID), \(bind: claim.subject), \(bind: claim.key), \(bind: claim.fingerprint),
                    \(bind: Int64(answer.statusCode)), \(bind: answer.body), \(bind: answer.etag), \(bind: now.milliseconds))
            ON CONFLICT (client_id, subject, idempotency_key) DO NOTHING
            RETURNING idempotency_key
            """).all().isEmpty
    }

    /// Gives `claim`'s key back, inside the transaction that took it.
    private static func release(_ claim: Claim, in database: any SQLDatabase) async throws {
        try await database.raw("""
            DELETE FROM action_decisions
            WHERE client_id = \(bind: claim.clientID) AND subject = \(bind: claim.subject) AND idempotency_key = \(bind: claim.key)
            """).run()
    }

    private static func answer(for claim: Claim, since: Timestamp, in database: any SQLDatabase) async throws -> StoredActionAnswer? {
        guard let row = try await database.raw("""
            SELECT fingerprint, status_code, body, etag FROM action_decisions
            WHERE client_id = \(bind: claim.clientID) AND subject = \(bind: claim.subject) AND idempotency_key = \(bind: claim.key)
              AND created_at >= \(bind: since.milliseconds)
            """).first()
        else { return nil }
        return StoredActionAnswer(
            fingerprint: try row.decode(column: "fingerprint", as: String.self),
            statusCode: Int(try row.decode(column: "status_code", as: Int64.self)),
            body: try row.decode(column: "body", as: String.self),
            etag: try row.decode(column: "etag", as: String?.self))
    }

    /// `document` as the JSON text the endpoint sends (keys sorted).
    static func json(_ document: ItemActionResultDocument) throws(StorageError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self)
        } catch {
            throw .corruptRecord("an action's result does not encode: \(error)")
        }
    }
}
