import Foundation
import SQLKit

// Each app's stored analytics (`analytics_usage`), kept in step with `analytics_events` by the
// statements that insert and delete events, and the retention sweep.
extension AnalyticsStore {
    /// One app's stored events and their bytes.
    struct AnalyticsUsage: Sendable {
        var events: Int
        var bytes: Int
    }

    /// Deletes every event received before `cutoff`, and takes it off its app's usage.
    ///
    /// - Returns: How many events went.
    ///
    /// Deletes the events received before `cutoff` and their usage, in one transaction.
    func deleteEvents(receivedBefore cutoff: Timestamp) async throws(StorageError) -> Int {
        try await connector.performTransaction("deleting old analytics events") { database in
            let perClient = try await database.raw("""
                SELECT client_id, COUNT(*) AS n, CAST(SUM(stored_bytes) AS BIGINT) AS bytes
                FROM analytics_events WHERE received_at < \(bind: cutoff.milliseconds) GROUP BY client_id
                """).all()
            guard !perClient.isEmpty else { return 0 }
            try await database.raw("DELETE FROM analytics_events WHERE received_at < \(bind: cutoff.milliseconds)").run()
            var deleted = 0
            for row in perClient {
                let clientID = try row.decode(column: "client_id", as: String.self)
                let events = try row.decode(column: "n", as: Int.self)
                let bytes = try row.decode(column: "bytes", as: Int?.self) ?? 0
                _ = try await Self.addUsage(of: clientID, events: -events, bytes: -bytes, on: database)
                deleted += events
            }
            return deleted
        }
    }

    /// The app's usage, zero when it has stored nothing.
    static func usage(of clientID: String, on database: any SQLDatabase) async throws -> AnalyticsUsage {
        guard let row = try await database.raw(
            "SELECT event_count, byte_count FROM analytics_usage WHERE client_id = \(bind: clientID)").first()
        else { return AnalyticsUsage(events: 0, bytes: 0) }
        return AnalyticsUsage(events: try row.decode(column: "event_count", as: Int.self), bytes: try row.decode(column: "byte_count", as: Int.self))
    }

    /// Adds to (or, with negative amounts, takes from) the app's usage in one statement.
    ///
    /// - Returns: The new totals.
    static func addUsage(of clientID: String, events: Int, bytes: Int, on database: any SQLDatabase) async throws -> AnalyticsUsage {
        let row = try await database.raw("""
            INSERT INTO analytics_usage (client_id, event_count, byte_count)
            VALUES (\(bind: clientID), \(bind: Int64(events)), \(bind: Int64(bytes)))
            ON CONFLICT (client_id) DO UPDATE SET
                event_count = analytics_usage.event_count + excluded.event_count,
                byte_count = analytics_usage.byte_count + excluded.byte_count
            RETURNING event_count, byte_count
            """).first()
        guard let row else { throw StorageError.corruptRecord("analytics usage of \(clientID) returned no row") }
        return AnalyticsUsage(events: try row.decode(column: "event_count", as: Int.self), bytes: try row.decode(column: "byte_count", as: Int.self))
    }

    /// The error for a batch that would take `clientID` past `quota`.
    static func quotaExceeded(_ clientID: String, _ quota: AnalyticsQuota) -> StorageError {
        var limits: [String] = []
        if let events = quota.maximumEvents { limits.append("\(events) events") }
        if let bytes = quota.maximumBytes { limits.append("\(bytes) bytes") }
        return .quotaExceeded("app \(clientID) may store at most \(limits.joined(separator: " and ")) of analytics")
    }
}
