/// How many events, and how many bytes of them, one app may have stored.
public struct AnalyticsQuota: Sendable, Hashable {
    /// The most events stored per app; `nil` for no limit.
    public var maximumEvents: Int?
    /// The most bytes (name and properties) stored per app; `nil` for no limit.
    public var maximumBytes: Int?

    /// Creates a quota.
    public init(maximumEvents: Int?, maximumBytes: Int?) {
        self.maximumEvents = maximumEvents
        self.maximumBytes = maximumBytes
    }

    /// No limit at all.
    public static let unlimited = AnalyticsQuota(maximumEvents: nil, maximumBytes: nil)

    /// Whether an app with this much stored is within the quota.
    func allows(events: Int, bytes: Int) -> Bool {
        events <= (maximumEvents ?? .max) && bytes <= (maximumBytes ?? .max)
    }
}
