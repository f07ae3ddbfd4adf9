import Synchronization

/// Registered apps, looked up through a short-lived in-memory cache so the token endpoint does
/// not query the database for the client on every request.
///
/// An app changed or removed by `tandem admin` is seen by every process within ``timeToLive``.
public final class ClientDirectory: Sendable {
    private struct Entry {
        var app: AppRecord?
        var expires: ContinuousClock.Instant
    }

    /// The storage behind the cache.
    public let storage: any ServerStorage
    /// How long a lookup (found or not) is reused.
    public let timeToLive: Duration
    private let maximumEntries: Int
    private let entries = Mutex<[String: Entry]>([:])

    /// Creates a directory.
    public init(storage: any ServerStorage, timeToLive: Duration = .seconds(10), maximumEntries: Int = 10_000) {
        self.storage = storage
        self.timeToLive = timeToLive
        self.maximumEntries = maximumEntries
    }

    /// The app registered under `clientID`, or `nil`.
    public func app(clientID: String) async throws(StorageError) -> AppRecord? {
        let now = ContinuousClock.now
        if let cached = entries.withLock({ $0[clientID] }), cached.expires > now {
            return cached.app
        }
        let app = try await storage.app(clientID: clientID)
        let entry = Entry(app: app, expires: now + timeToLive)
        let limit = maximumEntries
        entries.withLock { entries in
            if entries.count >= limit { entries = entries.filter { $0.value.expires > now } }
            if entries.count < limit { entries[clientID] = entry }
        }
        return app
    }
}
