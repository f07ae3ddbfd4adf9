/// Analytics events: idempotent ingestion and aggregation.
///
/// ```swift
/// let result = try await storage.storeEvents(events, quota: .unlimited, now: Timestamp(clock.now))   // accepted vs duplicates
/// let counts = try await storage.eventCounts(clientID: "tandem-demo", name: "widget.tap", from: start, to: end)
/// ```
public protocol AnalyticsStorage: Sendable {
    /// Stores a batch in one transaction: every new event, or none when a statement fails.
    /// Events whose id is already stored, or repeated within the batch, are skipped.
    ///
    /// - Parameters:
    ///   - events: The batch.
    ///   - now: The reception time recorded with each event.
    ///   - quota: How much each app may have stored afterwards.
    /// - Throws: ``StorageError/quotaExceeded(_:)`` when the batch would take its app past
    ///   `quota` (nothing is stored).
    func storeEvents(_ events: [AnalyticsEvent], quota: AnalyticsQuota, now: Timestamp) async throws(StorageError) -> EventIngestion

    /// Deletes every event received before `cutoff`, and takes it off its app's usage.
    ///
    /// - Returns: How many events went.
    @discardableResult
    func deleteEvents(receivedBefore cutoff: Timestamp) async throws(StorageError) -> Int

    /// Counts one app's events of one name that happened in `[from, to)`, grouped by kind,
    /// family and configuration; most frequent first, ties in ascending order with `nil` first.
    func eventCounts(clientID: String, name: String, from: Timestamp, to: Timestamp) async throws(StorageError) -> [AnalyticsCount]
}

extension AnalyticsStorage {
    /// Stores a batch with no quota.
    public func storeEvents(_ events: [AnalyticsEvent], now: Timestamp) async throws(StorageError) -> EventIngestion {
        try await storeEvents(events, quota: .unlimited, now: now)
    }
}
