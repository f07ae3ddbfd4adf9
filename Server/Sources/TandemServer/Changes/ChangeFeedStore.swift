import SQLKit
import TandemPlatform

/// The change feed: which entity sets changed when, appended by ``BusinessDataStore`` in the
/// transaction that changes the rows, read oldest first.
///
/// ```swift
/// let changes = try await database.changes.changes(since: lastSeen, limit: 100)
/// ```
struct ChangeFeedStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// The most changes one read returns.
    static let maximumLimit = 1000

    /// Appends `change` inside a transaction that is already open (the one changing the rows).
    static func append(_ change: EntitySetChange, in database: any SQLDatabase) async throws {
        try await database.raw("""
            INSERT INTO entity_set_changes (id, destination, entity_set, version, row_count, changed_at, user_id)
            VALUES (\(bind: change.id), \(bind: change.destination), \(bind: change.entitySet), \(bind: change.version),
                    \(bind: Int64(change.rowCount)), \(bind: change.changedAt.milliseconds), \(bind: change.userID))
            """).run()
    }

    /// The changes written at or after `since`, oldest first, at most `limit` (1…``maximumLimit``).
    func changes(since: Timestamp, limit: Int) async throws(StorageError) -> [EntitySetChange] {
        let limit = max(1, min(limit, Self.maximumLimit))
        let rows = try await connector.perform("reading the change feed") { database in
            try await database.raw("""
                SELECT id, destination, entity_set, version, row_count, changed_at, user_id FROM entity_set_changes
                WHERE changed_at >= \(bind: since.milliseconds) ORDER BY changed_at, id LIMIT \(bind: limit)
                """).all()
        }
        do {
            return try rows.map { row in
                EntitySetChange(
                    id: try row.decode(column: "id", as: String.self),
                    destination: try row.decode(column: "destination", as: String.self),
                    entitySet: try row.decode(column: "entity_set", as: String.self),
                    version: try row.decode(column: "version", as: String.self),
                    rowCount: try row.decode(column: "row_count", as: Int.self),
                    changedAt: Timestamp(milliseconds: try row.decode(column: "changed_at", as: Int64.self)),
                    userID: try row.decode(column: "user_id", as: String?.self))
            }
        } catch {
            throw .corruptRecord("entity_set_changes: \(error)")
        }
    }

    /// Records that a customer's backend changed `entitySet` of `destination` for the users
    /// `userIDs` (nil: for everyone) and owes the pushes, in one transaction: a change feed row
    /// per user (or one), and a push owed to each live registration of those users whose widgets
    /// show the set. The server does not hold the backend's rows, so it cannot tell what a
    /// widget would show: every such device is owed a push, paced as every push is.
    ///
    /// - Returns: The changes recorded.
    func recordBackendChange(
        destination: String, entitySet: String, userIDs: [String]?, now: Timestamp
    ) async throws(StorageError) -> [EntitySetChange] {
        let changes = (userIDs.map { $0.map(Optional.some) } ?? [nil]).map { userID in
            let id = SortableID.next()
            return EntitySetChange(
                id: id, destination: destination, entitySet: entitySet, version: "backend:" + id, rowCount: 0, changedAt: now, userID: userID)
        }
        try await connector.performTransaction("recording a backend's change") { database in
            for change in changes {
                try await Self.append(change, in: database)
                try await PushOutboxStore.enqueue(backendChange: change, in: database)
            }
        }
        return changes
    }

    /// Deletes the changes written before `before`.
    ///
    /// - Returns: How many were deleted.
    func deleteChanges(before: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting old changes") { database in
            try await database.raw("DELETE FROM entity_set_changes WHERE changed_at < \(bind: before.milliseconds) RETURNING id").all().count
        }
    }
}
