import Foundation
import TandemWidgetModel

/// Plays WidgetKit's timeline rules on a virtual clock, so widget behaviour can be tested
/// without a phone.
///
/// For each installed instance (kind + family + configuration) the simulator asks the provider
/// for a timeline, shows each entry from its date, and asks again when the `ReloadPolicy` says:
/// `atEnd` once the last entry's date has passed, `after(date)` at that date, `never` only when
/// the host app requests a reload. Like WidgetKit it never reloads an instance twice within
/// ``minimumReloadInterval``, and charges each reload to a daily budget per instance; once the
/// budget is spent the last timeline stays until the next day. Reloads while the host app is in
/// the foreground cost nothing. Nothing sleeps: time moves only with ``advance(to:)``.
///
/// ```swift
/// let clock = VirtualClock(nineAM)
/// let simulator = TimelineSimulator(provider: OrdersProvider(clock: clock), clock: clock)
/// await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
/// await simulator.advance(by: 2 * 3_600)
/// await simulator.reloadTimelines(ofKind: "orders")
/// print(await simulator.traceLines)   // ["09:00 systemSmall fresh 12 rows", …]
/// ```
///
/// Calls are meant to be made one after the other, as a test does; the provider runs on the
/// simulator's clock, which the simulator moves to each event before handling it.
public actor TimelineSimulator<Provider: WidgetProvider> {
    /// An instance of this provider's widgets.
    public typealias Instance = WidgetInstance<Provider.Configuration>
    /// A record of this simulator's trace.
    public typealias Record = TimelineTraceRecord<Provider.Entry, Provider.Configuration>

    /// WidgetKit's documented range is 40 to 70 reloads a day for a frequently viewed widget;
    /// the simulator takes the middle.
    public static var defaultDailyReloadBudget: Int { 50 }

    /// The provider under test.
    public let provider: Provider
    /// The clock the simulator moves; share it with the provider.
    public let clock: VirtualClock
    /// Counted reloads allowed per instance per calendar day.
    public let dailyReloadBudget: Int
    /// The shortest time between two policy reloads of one instance, in seconds (WidgetKit
    /// spaces reloads at least about five minutes apart).
    public let minimumReloadInterval: TimeInterval
    /// The calendar whose days the budget counts and whose time zone the trace lines use.
    public let calendar: Calendar

    /// Everything that happened, in order.
    public private(set) var trace: [Record] = []
    /// Whether the host app is in the foreground, when reloads cost no budget.
    public private(set) var isHostInForeground = false

    private var slots: [Slot] = []

    /// A simulator for `provider` on `clock`.
    ///
    /// - Parameters:
    ///   - provider: The provider under test.
    ///   - clock: The virtual clock; the simulator moves it, the provider may read it.
    ///   - dailyReloadBudget: Counted reloads per instance per day; default ``defaultDailyReloadBudget``.
    ///   - minimumReloadInterval: Shortest time between policy reloads, default five minutes.
    ///   - calendar: The days the budget counts; default Gregorian in UTC, for reproducible tests.
    public init(
        provider: Provider,
        clock: VirtualClock,
        dailyReloadBudget: Int = 50,
        minimumReloadInterval: TimeInterval = 300,
        calendar: Calendar = .utcGregorian
    ) {
        self.provider = provider
        self.clock = clock
        self.dailyReloadBudget = max(0, dailyReloadBudget)
        self.minimumReloadInterval = max(1, minimumReloadInterval)
        self.calendar = calendar
    }

    // MARK: - Instances

    /// Places a widget and loads its first timeline, as adding a widget to the home screen does.
    /// Placing an instance that is already there does nothing.
    ///
    /// - Returns: The instance, to query with ``displayedEntry(of:)``.
    @discardableResult
    public func install(kind: String, family: WidgetFamily, configuration: Provider.Configuration) async -> Instance {
        let instance = Instance(kind: kind, family: family, configuration: configuration)
        guard index(of: instance) == nil else { return instance }
        slots.append(Slot(instance: instance, budget: ReloadBudget(dailyLimit: dailyReloadBudget)))
        await reload(slotAt: slots.count - 1, reason: .installed)
        return instance
    }

    /// Removes a widget; it gets no more reloads.
    public func remove(_ instance: Instance) {
        slots.removeAll { $0.instance == instance }
    }

    /// The installed instances, in the order they were placed.
    public var instances: [Instance] { slots.map(\.instance) }

    /// The entry `instance` shows now, or `nil` if it shows nothing yet (or is not installed).
    public func displayedEntry(of instance: Instance) -> Provider.Entry? {
        index(of: instance).flatMap { slots[$0].displayedEntry }
    }

    /// When `instance` will next ask its provider on its own, or `nil` (policy `never`, or not installed).
    public func nextReloadDate(of instance: Instance) -> Date? {
        index(of: instance).flatMap { slots[$0].nextReload }
    }

    /// When the next entry is shown or the next reload falls due, over every instance; `nil`
    /// when nothing will happen until the host reloads. Lets several simulators share a clock:
    /// advance each one only to the earliest of their dates.
    public var nextEventDate: Date? {
        slots.flatMap { [$0.nextDisplayDate, $0.nextReload] }.compactMap { $0 }.min()
    }

    /// The trace as lines: "09:00 systemSmall fresh 12 rows"; see ``TimelineTraceRecord/line(in:)``.
    public var traceLines: [String] { trace.map { $0.line(in: calendar) } }

    // MARK: - Host app

    /// Tells the simulator whether the host app is in the foreground; reloads then cost no budget.
    public func setHostInForeground(_ inForeground: Bool) {
        isHostInForeground = inForeground
    }

    /// What the host's `WidgetCenter.shared.reloadTimelines(ofKind:)` does: every instance of
    /// `kind` asks its provider now, budget permitting.
    public func reloadTimelines(ofKind kind: String) async {
        for position in slots.indices where slots[position].instance.kind == kind {
            await reload(slotAt: position, reason: .host)
        }
    }

    /// What the host's `WidgetCenter.shared.reloadAllTimelines()` does: every instance asks
    /// its provider now, budget permitting.
    public func reloadAllTimelines() async {
        for position in slots.indices {
            await reload(slotAt: position, reason: .host)
        }
    }

    // MARK: - Time

    /// Moves the clock to `date`, showing every entry and making every reload that falls due
    /// on the way, in time order. A date in the past does nothing.
    public func advance(to date: Date) async {
        while let (time, position, isDisplay) = nextEvent(notAfter: date) {
            clock.set(time)
            if isDisplay {
                slots[position].displayedIndex = (slots[position].displayedIndex ?? -1) + 1
                record(.displayed(slots[position].timeline.entries[slots[position].displayedIndex ?? 0]), for: position)
            } else {
                await reload(slotAt: position, reason: .policy)
            }
        }
        clock.set(date)
    }

    /// Moves the clock `interval` seconds forward; see ``advance(to:)``.
    public func advance(by interval: TimeInterval) async {
        await advance(to: clock.now.addingTimeInterval(max(0, interval)))
    }

    // MARK: - Rules

    /// The earliest due event up to `limit`; an entry shown at the same time as a reload goes first.
    private func nextEvent(notAfter limit: Date) -> (Date, Int, Bool)? {
        var best: (Date, Int, Bool)?
        for (position, slot) in slots.enumerated() {
            if let display = slot.nextDisplayDate, display <= limit, best.map({ display < $0.0 || (display == $0.0 && !$0.2) }) ?? true {
                best = (display, position, true)
            }
            if let reload = slot.nextReload, reload <= limit, best.map({ reload < $0.0 }) ?? true {
                best = (reload, position, false)
            }
        }
        return best
    }

    private func reload(slotAt position: Int, reason: ReloadReason) async {
        let now = clock.now
        let day = calendar.startOfDay(for: now)
        let counted = !isHostInForeground
        if counted, !slots[position].budget.hasRoom(onDayStarting: day) {
            record(.reloadDeclined(reason), for: position)
            if reason == .policy {
                slots[position].nextReload = calendar.date(byAdding: .day, value: 1, to: day) ?? now.addingTimeInterval(86_400)
            }
            return
        }
        if counted { slots[position].budget.charge(onDayStarting: day) }
        record(.reloaded(reason, counted: counted), for: position)
        let instance = slots[position].instance
        let context = WidgetContext(family: instance.family)
        let timeline = await provider.timeline(for: instance.configuration, in: context)
        // The provider ran on another task; the instance may have been removed meanwhile.
        guard let current = index(of: instance) else { return }
        apply(timeline, toSlotAt: current, at: now)
    }

    private func apply(_ timeline: Timeline<Provider.Entry>, toSlotAt position: Int, at now: Date) {
        let earliest = now.addingTimeInterval(minimumReloadInterval)
        switch timeline.policy {
        case .atEnd: slots[position].nextReload = max(timeline.entries.last?.date ?? now, earliest)
        case .after(let date): slots[position].nextReload = max(date, earliest)
        case .never: slots[position].nextReload = nil
        }
        // An empty timeline leaves the last entry on screen, as WidgetKit does.
        guard !timeline.entries.isEmpty else { return }
        slots[position].timeline = timeline
        slots[position].displayedIndex = timeline.entries.lastIndex { $0.date <= now }
        if let shown = slots[position].displayedIndex {
            record(.displayed(timeline.entries[shown]), for: position)
        }
    }

    private func record(_ event: Record.Event, for position: Int) {
        if case .displayed(let entry) = event { slots[position].displayedEntry = entry }
        trace.append(Record(date: clock.now, instance: slots[position].instance, event: event))
    }

    private func index(of instance: Instance) -> Int? {
        slots.firstIndex { $0.instance == instance }
    }

    /// One installed instance and where it is in its timeline.
    private struct Slot {
        let instance: Instance
        var budget: ReloadBudget
        var timeline = Timeline<Provider.Entry>(entries: [], policy: .never)
        var displayedIndex: Int?
        var nextReload: Date?
        /// What is on screen; it outlives its timeline when the next one starts in the future.
        var displayedEntry: Provider.Entry?

        var nextDisplayDate: Date? {
            let next = (displayedIndex ?? -1) + 1
            return next < timeline.entries.count ? timeline.entries[next].date : nil
        }
    }
}
