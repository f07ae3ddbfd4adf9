import Foundation

/// What happens on the simulated phone during a ``PhoneDay``: how the user uses the app, what
/// the settings allow, how the system grants background time and spends reloads, and when the
/// server's data changes. Times are seconds after ``start``.
///
/// The DocC article "The phone day" says where each rule comes from in Apple's documentation.
///
/// ```swift
/// var settings = PhoneDaySettings(start: midnight)
/// settings.appOpens = [9 * 3_600]          // opened once, at 9:00
/// settings.refreshPolicy = .oneShot
/// try settings.validate()
/// ```
public struct PhoneDaySettings: Codable, Hashable, Sendable {
    /// When the day starts (midnight); the app was last used, and the widgets placed, before.
    public var start: Date
    /// How long the day lasts; 24 hours.
    public var duration: TimeInterval = 24 * 3_600
    /// When the user opens the app; empty for never. Default 8:00, 12:30 and 18:00.
    public var appOpens: [TimeInterval] = [8 * 3_600, 12.5 * 3_600, 18 * 3_600]
    /// How long the app stays in the foreground each time; 5 minutes.
    public var foregroundDuration: TimeInterval = 5 * 60
    /// Whether the user swipes the app away after each use: iOS then launches it in the
    /// background no more until the user opens it again.
    public var forceQuit = false
    /// Whether Background App Refresh is on for the app (Settings › General).
    public var backgroundAppRefresh = true
    /// Whether Low Power Mode is on all day: background app refresh is paused.
    public var lowPowerMode = false
    /// When the user first unlocks the phone, which restarted before the day began; until then
    /// class C files and keychain items (after first unlock) cannot be read. `nil`: unlocked
    /// before the day began. Opening the app unlocks the phone too.
    public var firstUnlock: TimeInterval?
    /// How the app asks for background time.
    public var refreshPolicy: AppRefreshPolicy = .resubmitting
    /// The `earliestBeginDate` the app asks for, after now; 30 minutes, as the generated app does.
    public var refreshInterval: TimeInterval = 30 * 60
    /// How long after `earliestBeginDate` the system grants a run, drawn evenly from this range
    /// for each request (the system chooses; Apple promises only "not before"); 15 to 90 minutes.
    public var grantDelay: ClosedRange<TimeInterval> = 15 * 60...90 * 60
    /// When the server's business data changes; default every 30 minutes from 8:00 to 18:00.
    public var dataChanges: [TimeInterval] = stride(from: 8 * 3_600, through: 18 * 3_600, by: 30 * 60).map { $0 }
    /// Counted reloads per widget instance per day; 50, the middle of WidgetKit's 40 to 70.
    public var dailyReloadBudget = 50
    /// The shortest time between two policy reloads of one instance; 5 minutes.
    public var minimumReloadInterval: TimeInterval = 5 * 60
    /// WidgetKit push updates the app's widgets take per day (from ``start``, per 24 hours); 40.
    /// Apple budgets them without giving a figure, and each one reloads the widgets "similar to
    /// when you call `reloadAllTimelines()`", so it is charged to the widget's reload budget as
    /// well: the day takes the low end of WidgetKit's 40 to 70. A push over it is dropped.
    public var widgetPushBudget = 40
    /// Background pushes iOS launches the host for in any 60 minutes; 2. Apple: "the system may
    /// throttle the delivery of background notifications if the total number becomes
    /// excessive … don't try to send more than two or three per hour" ("Pushing background
    /// updates to your App"); the day takes the lower figure. A push over it is dropped.
    public var backgroundPushesPerHour = 2
    /// When the user taps Approve on the widget, from the start of the day (none by default);
    /// each tap decides another pending approval (``PhoneDayTap``).
    public var taps: [TimeInterval] = []
    /// How often the widget's staleness is sampled; every minute.
    public var sampleInterval: TimeInterval = 60
    /// The seed of the system's choices, so a day replays the same.
    public var seed: UInt64 = 23

    /// Settings for a day starting at `start`, with the defaults above.
    public init(start: Date) {
        self.start = start
    }

    /// The end of the day.
    public var end: Date { start.addingTimeInterval(duration) }

    /// Checks every value.
    ///
    /// - Throws: ``PhoneDayError/invalidSetting(_:)`` naming the first value out of range.
    public func validate() throws(PhoneDayError) {
        func check(_ condition: Bool, _ message: String) throws(PhoneDayError) {
            if !condition { throw .invalidSetting(message) }
        }
        try check(duration.isFinite && duration >= 3_600 && duration <= 7 * 86_400, "the day lasts 1 hour to 7 days")
        try check(appOpens.allSatisfy { $0.isFinite && $0 >= 0 && $0 < duration }, "app opens fall within the day")
        try check(foregroundDuration.isFinite && foregroundDuration >= 1 && foregroundDuration <= 3_600, "the app stays open 1 s to 1 h")
        try check(firstUnlock.map { $0.isFinite && $0 >= 0 && $0 < duration } ?? true, "the first unlock falls within the day")
        try check(refreshInterval.isFinite && refreshInterval >= 60 && refreshInterval <= 86_400, "the refresh interval is 1 min to 1 day")
        try check(grantDelay.lowerBound >= 0 && grantDelay.upperBound.isFinite && grantDelay.upperBound <= 86_400, "the grant delay is 0 to 1 day")
        try check(dataChanges.allSatisfy { $0.isFinite && $0 >= 0 && $0 < duration }, "data changes fall within the day")
        try check(taps.allSatisfy { $0.isFinite && $0 >= 0 && $0 < duration } && taps.count <= 200, "taps fall within the day, 200 at most")
        try check(dailyReloadBudget >= 0 && dailyReloadBudget <= 1_000, "the daily reload budget is 0 to 1000")
        try check(minimumReloadInterval.isFinite && minimumReloadInterval >= 1 && minimumReloadInterval <= 3_600, "reloads are 1 s to 1 h apart")
        try check(widgetPushBudget >= 0 && widgetPushBudget <= 1_000, "the widget push budget is 0 to 1000 a day")
        try check(backgroundPushesPerHour >= 0 && backgroundPushesPerHour <= 60, "background pushes are 0 to 60 an hour")
        try check(sampleInterval.isFinite && sampleInterval >= 1 && sampleInterval <= 3_600, "samples are 1 s to 1 h apart")
    }
}
