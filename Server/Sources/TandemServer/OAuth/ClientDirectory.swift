import TandemPlatform

/// Registered apps, looked up through a short-lived in-memory cache so the token endpoint does
/// not query the database for the client on every request.
///
/// An app changed or removed by `tandem admin` or another instance's cockpit is seen by every
/// process within ``timeToLive`` (the server's `revocationRefreshInterval`, 1 s).
/// Unknown client ids are cached too (as `nil`), so a flood of them costs one query each per
/// ``timeToLive`` at most; the cache is bounded.
final class ClientDirectory: Sendable {
    /// The storage behind the cache.
    let apps: AppStore
    /// How long a lookup (found or not) is reused.
    let timeToLive: Duration
    /// The clock lookups expire on.
    let clock: any WallClock
    private let cache: ExpiringCache<String, AppRecord?>

    /// Creates a directory.
    ///
    /// - Parameters:
    ///   - apps: Where apps are registered.
    ///   - timeToLive: How long a lookup (found or not) is reused (default 10 s).
    ///   - maximumEntries: How many lookups are remembered at most.
    ///   - clock: The clock lookups expire on (default the system's).
    init(
        apps: AppStore, timeToLive: Duration = .seconds(10), maximumEntries: Int = 10_000, clock: any WallClock = SystemClock()
    ) {
        self.apps = apps
        self.timeToLive = timeToLive
        self.clock = clock
        cache = ExpiringCache(capacity: maximumEntries)
    }

    /// The app registered under `clientID`, or `nil`.
    func app(clientID: String) async throws(StorageError) -> AppRecord? {
        let now = Timestamp(clock.now)
        if let cached = cache.value(for: clientID, now: now) { return cached }
        let app = try await apps.app(clientID: clientID)
        cache.store(app, for: clientID, validUntil: now.adding(timeToLive), now: now)
        return app
    }

    /// Forgets the cached lookup of `clientID`, after this process changed the app: the next
    /// lookup reads the database (other processes see the change within ``timeToLive``).
    func forget(clientID: String) {
        cache.removeValue(for: clientID)
    }
}
