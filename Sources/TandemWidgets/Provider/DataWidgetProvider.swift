#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel

/// The ready business-data widget: "rows of entity set X from destination Y", telling the
/// truth in every state.
///
/// It reads the host's session status and the sealed snapshot for its configuration from the
/// shared container; in ``DataWidgetMode/brokered`` mode it writes a data request when the
/// snapshot is missing or stale, in ``DataWidgetMode/direct(_:)`` mode it fetches the page
/// itself. Its entries are exactly:
/// - **signed out**: no rows, a sign-in link; reload policy `never` (the host reloads on sign-in);
/// - **reauth required**: no rows, "open the app" with the reason; policy `never`;
/// - **unavailable**: the device is locked or a record cannot be read now: the last rows kept,
///   marked as such, never "signed out"; retried after ``DataWidgetSchedule/retry``;
/// - **stale**: the last rows with their age, ageing hour by hour; reloaded by the host once it
///   has fulfilled the request (policy `never`), or after ``DataWidgetSchedule/requestReload``
///   when one is set;
/// - **fresh**: current rows, then the same rows marked stale at the snapshot's expiry, when
///   the next timeline is asked for.
///
/// Every container or server error becomes one of these, with a log line.
///
/// ```swift
/// let provider = DataWidgetProvider(
///     kind: "orders", scheme: "acme", container: container,
///     credentials: SharedSecretCredentials(storage: sharedKeychain))
/// let timeline = await provider.timeline(for: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"),
///                                        in: WidgetContext(family: .systemMedium))
/// ```
public struct DataWidgetProvider: WidgetProvider {
    /// The entries show `WidgetContent`.
    public typealias Entry = WidgetContentEntry
    /// A destination, an entity set and how to show its rows.
    public typealias Configuration = DataWidgetConfiguration

    /// The widget's kind, as the extension declares it; tap links carry it.
    public let kind: String
    /// The host app's URL scheme, for tap links.
    public let scheme: String
    /// The container shared with the host.
    public let container: SharedContainer
    /// Where the share and the shared sealing key come from.
    public let credentials: any WidgetCredentialSource
    /// Brokered or direct.
    public let mode: DataWidgetMode
    /// Freshness and reload intervals.
    public let schedule: DataWidgetSchedule
    let clock: any WallClock
    let logger: Logger
    let memory = DataWidgetMemory()

    /// A provider for widgets of `kind`.
    ///
    /// - Parameters:
    ///   - kind: The widget's kind (letters, digits, `-`, `.`, `_`).
    ///   - scheme: The host app's URL scheme.
    ///   - container: The App Group container.
    ///   - credentials: The source of the share and shared sealing key.
    ///   - mode: ``DataWidgetMode/brokered`` by default.
    ///   - schedule: Freshness and reload intervals.
    ///   - clock: The current time, which snapshots' freshness and the reload dates are judged
    ///     by; in tests a `ManualClock`, or the `VirtualClock` a `TimelineSimulator` moves.
    ///   - logger: Receives a line for every error turned into a state; never a secret.
    public init(
        kind: String, scheme: String, container: SharedContainer, credentials: any WidgetCredentialSource,
        mode: DataWidgetMode = .brokered, schedule: DataWidgetSchedule = DataWidgetSchedule(),
        clock: any WallClock = SystemClock(), logger: Logger = Logger(label: "tandem.widgets")
    ) {
        self.kind = kind
        self.scheme = scheme
        self.container = container
        self.credentials = credentials
        self.mode = mode
        self.schedule = schedule
        self.clock = clock
        self.logger = logger
    }

    /// Sample rows, fresh, with no I/O: what the widget shows while it loads.
    public func placeholder(in context: WidgetContext) -> WidgetContentEntry {
        WidgetContentEntry(date: clock.now, content: Self.sampleContent)
    }

    /// Sample rows when `context.isPreview` (the widget gallery); otherwise what the container
    /// holds now, without writing a request or fetching.
    public func snapshot(for configuration: DataWidgetConfiguration, in context: WidgetContext) async -> WidgetContentEntry {
        if context.isPreview { return placeholder(in: context) }
        let now = clock.now
        let outcome = await resolve(configuration, in: context.family, now: now, mayAct: false)
        let catalog = publishedCatalog()
        return entries(for: outcome, configuration: configuration, family: context.family, now: now)
            .underLockScreenPolicy(catalog?.lockScreen).withActionStates(actionStates(now: now), policy: catalog?.actionPolicy)
            .entries.first ?? placeholder(in: context)
    }

    /// The entries from now on and when to ask again; see the type's description.
    public func timeline(for configuration: DataWidgetConfiguration, in context: WidgetContext) async -> Timeline<WidgetContentEntry> {
        let now = clock.now
        let outcome = await resolve(configuration, in: context.family, now: now, mayAct: true)
        let catalog = publishedCatalog()
        return markingNewRows(
            entries(for: outcome, configuration: configuration, family: context.family, now: now), of: configuration
        ).underLockScreenPolicy(catalog?.lockScreen).withActionStates(actionStates(now: now), policy: catalog?.actionPolicy)
    }

    /// What ``placeholder(in:)`` and gallery previews show.
    public static let sampleContent = WidgetContent(
        title: "SalesOrders · sales",
        rows: [
            WidgetRow(key: "SO500001", value: "Alpine Logistics"), WidgetRow(key: "SO500002", value: "Blue Harbor Retail"),
            WidgetRow(key: "SO500003", value: "Cedar Foods"), WidgetRow(key: "SO500004", value: "Delta Engineering"),
        ],
        state: .fresh, footer: WidgetFooter.text(for: .fresh))
}
