/// How the server sends pushes: where APNs is, how often a device may be pushed for one entity
/// set, and how it backs off.
///
/// ```swift
/// var configuration = TandemServerConfiguration(database: .sqlite(path: path))
/// configuration.push.coalescingInterval = .seconds(60)
/// ```
public struct PushSettings: Sendable {
    /// APNs' production service.
    public var productionURL = "https://api.push.apple.com"
    /// APNs' development service (`sandbox` tokens: apps built for development).
    public var sandboxURL = "https://api.sandbox.push.apple.com"
    /// Certificates (PEM) to trust besides the system's: the local APNs stand-in's test
    /// certificate authority. `nil` trusts the system's roots only, as production should.
    public var additionalTrustRootsPEM: String?
    /// The shortest time between two WidgetKit pushes to one device (Apple budgets widget
    /// reloads; changes in between coalesce into the next push). Default 5 minutes.
    public var coalescingInterval: Duration = .seconds(5 * 60)
    /// WidgetKit pushes one device takes a day (from midnight in its time zone); 40, the low end
    /// of WidgetKit's 40 to 70 reloads a day, which a pushed reload counts against. The
    /// ``PushPacer`` spreads them over the day.
    public var widgetPushesPerDay = 40
    /// Background pushes one device's host takes an hour; 2. Apple: "don't try to send more than
    /// two or three per hour" ("Pushing background updates to your App").
    public var hostPushesPerHour = 2
    /// When the device's active day ends, after its midnight; 22:00. Under sustained change
    /// the day's pushes are spread until then.
    public var activeDayEnd: Duration = .seconds(22 * 3_600)
    /// Pushes of the day kept back from the spreading for changes after the active day; 2.
    public var budgetReserve = 2
    /// How long a provider token is reused (clamped to 20–55 minutes; default 50).
    public var providerTokenReuse: Duration = .seconds(50 * 60)
    /// How long APNs keeps trying to deliver a notification (`apns-expiration`). Default 1 hour.
    public var notificationLifetime: Duration = .seconds(3600)
    /// The first back-off after APNs asked to slow down or failed; it doubles with each
    /// attempt, with jitter, up to ``maximumBackoff``.
    public var firstBackoff: Duration = .seconds(1)
    /// The longest back-off.
    public var maximumBackoff: Duration = .seconds(5 * 60)
    /// How long a claimed push is reserved for its sender: after a crash mid-send, another
    /// instance (or the restarted one) sends it once this has passed.
    public var sendLease: Duration = .seconds(30)
    /// How often the sender looks for due pushes when nothing rang it (another instance wrote
    /// the change, or a back-off ended). Default 1 second.
    public var pollInterval: Duration = .seconds(1)
    /// How long one request to APNs may take.
    public var requestTimeout: Duration = .seconds(10)
    /// Whether the running server sends the outbox's pushes itself (the default). `false`
    /// leaves them to a ``ManualPushDispatcher`` whose passes the caller runs: a simulation on a
    /// virtual clock (`tandem simulate day`) decides when pushes go out.
    public var runsSender = true

    /// The defaults above.
    public init() {}
}
