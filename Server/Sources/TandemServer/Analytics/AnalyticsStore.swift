import Foundation
import SQLKit

/// Analytics events: idempotent ingestion and aggregation.
///
/// ```swift
/// let result = try await database.analytics.storeEvents(events, quota: .unlimited, now: Timestamp(clock.now))   // accepted vs duplicates
/// let counts = try await database.analytics.eventCounts(clientID: "tandem-demo", name: "widget.tap", from: start, to: end)
/// ```
struct AnalyticsStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Events per `INSERT`: a 500-event batch is three statements.
    static let eventsPerInsert = 200

    /// Stores a batch in one transaction: every new event, or none when a statement fails.
    /// Events whose id is already stored, or repeated within the batch, are skipped.
    ///
    /// - Parameters:
    ///   - events: The batch.
    ///   - now: The reception time recorded with each event.
    ///   - quota: How much each app may have stored afterwards.
    /// - Throws: ``StorageError/quotaExceeded(_:)`` when the batch would take its app past
    ///   `quota` (nothing is stored).
    ///
    /// Multi-row `INSERT … ON CONFLICT (id) DO NOTHING RETURNING id` statements in one
    /// transaction; the returned ids are the events accepted. Ids repeated within the batch are
    /// dropped before the insert (and counted as duplicates). The accepted events are added to
    /// their app's row of `analytics_usage` in the same transaction, which is rolled back when
    /// that takes the app past `quota`.
    func storeEvents(_ events: [AnalyticsEvent], quota: AnalyticsQuota, now: Timestamp) async throws(StorageError) -> EventIngestion {
        var seen = Set<String>()
        let unique = events.filter { seen.insert($0.id).inserted }
        guard !unique.isEmpty else { return EventIngestion(accepted: 0, duplicates: events.count) }
        let accepted = try await connector.performTransaction("storing analytics events") { database in
            for clientID in Set(unique.map(\.clientID)) {
                let usage = try await Self.usage(of: clientID, on: database)
                guard quota.allows(events: usage.events + 1, bytes: usage.bytes + 1) else { throw Self.quotaExceeded(clientID, quota) }
            }
            var acceptedIDs = Set<String>()
            var start = 0
            while start < unique.count {
                let end = min(start + Self.eventsPerInsert, unique.count)
                let values = unique[start..<end].map { event -> SQLQueryString in
                    """
                    (\(bind: event.id), \(bind: event.clientID), \(bind: event.subject), \(bind: event.name),
                     \(bind: event.occurredAt.milliseconds), \(bind: now.milliseconds), \(bind: event.kind),
                     \(bind: event.family), \(bind: event.configuration), \(bind: event.properties), \(bind: Int64(event.storedBytes)))
                    """
                }.joined(separator: ", ")
                for row in try await database.raw("""
                    INSERT INTO analytics_events
                        (id, client_id, subject, name, occurred_at, received_at, kind, family, configuration, properties, stored_bytes)
                    VALUES \(values)
                    ON CONFLICT (id) DO NOTHING RETURNING id
                    """).all() {
                    acceptedIDs.insert(try row.decode(column: "id", as: String.self))
                }
                start = end
            }
            let stored = unique.filter { acceptedIDs.contains($0.id) }
            for (clientID, added) in Dictionary(grouping: stored, by: \.clientID) {
                let total = try await Self.addUsage(of: clientID, events: added.count, bytes: added.reduce(0) { $0 + $1.storedBytes }, on: database)
                guard quota.allows(events: total.events, bytes: total.bytes) else { throw Self.quotaExceeded(clientID, quota) }
            }
            return stored.count
        }
        return EventIngestion(accepted: accepted, duplicates: events.count - accepted)
    }

    /// Stores a batch with no quota.
    func storeEvents(_ events: [AnalyticsEvent], now: Timestamp) async throws(StorageError) -> EventIngestion {
        try await storeEvents(events, quota: .unlimited, now: now)
    }

    /// Counts one app's events of one name that happened in `[from, to)`, grouped by kind,
    /// family and configuration; most frequent first, ties in ascending order with `nil` first.
    ///
    /// One `GROUP BY` query over the app's events of that name in the period; ordered here, so
    /// `nil` sorts first on both databases.
    func eventCounts(clientID: String, name: String, from: Timestamp, to: Timestamp) async throws(StorageError) -> [AnalyticsCount] {
        let rows = try await connector.perform("counting analytics events") { database in
            try await database.raw("""
                SELECT kind, family, configuration, COUNT(*) AS n
                FROM analytics_events
                WHERE client_id = \(bind: clientID) AND name = \(bind: name)
                  AND occurred_at >= \(bind: from.milliseconds) AND occurred_at < \(bind: to.milliseconds)
                GROUP BY kind, family, configuration
                """).all()
        }
        let counts: [AnalyticsCount]
        do {
            counts = try rows.map { row in
                AnalyticsCount(
                    kind: try row.decode(column: "kind", as: String?.self),
                    family: try row.decode(column: "family", as: String?.self),
                    configuration: try row.decode(column: "configuration", as: String?.self),
                    count: try row.decode(column: "n", as: Int.self))
            }
        } catch {
            throw .corruptRecord("analytics counts: \(error)")
        }
        return counts.sorted { lhs, rhs in
            if lhs.count != rhs.count { return lhs.count > rhs.count }
            for (left, right) in [(lhs.kind, rhs.kind), (lhs.family, rhs.family), (lhs.configuration, rhs.configuration)] where left != right {
                return Self.nilFirst(left, right)
            }
            return false
        }
    }

    /// Ascending order with `nil` before every string.
    private static func nilFirst(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil), (_?, nil): false
        case (nil, _?): true
        case (let left?, let right?): left < right
        }
    }
}
