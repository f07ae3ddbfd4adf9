/// Analytics events: idempotent ingestion and aggregation.
///
/// ```swift
/// let result = try await storage.storeEvents(events, now: .now())   // accepted vs duplicates
/// let counts = try await storage.eventCounts(clientID: "tandem-demo", name: "widget.tap", from: start, to: end)
/// ```
public protocol AnalyticsStorage: Sendable {
    /// Stores a batch in one transaction: every new event, or none when a statement fails.
    /// Events whose id is already stored, or repeated within the batch, are skipped.
    ///
    /// - Parameters:
    ///   - events: The batch.
    ///   - now: The reception time recorded with each event.
    func storeEvents(_ events: [AnalyticsEvent], now: Timestamp) async throws(StorageError) -> EventIngestion

    /// Counts one app's events of one name that happened in `[from, to)`, grouped by kind,
    /// family and configuration; most frequent first, ties in ascending order with `nil` first.
    func eventCounts(clientID: String, name: String, from: Timestamp, to: Timestamp) async throws(StorageError) -> [AnalyticsCount]
}
