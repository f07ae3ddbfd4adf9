import Foundation

/// `BGTaskScheduler` for one app-refresh identifier, as a ``PhoneDay`` plays it: at most one
/// request pending (a new one replaces it), refused while Background App Refresh is off or Low
/// Power Mode is on, run once at a time the system chooses after its `earliestBeginDate`, and
/// not run while the app is in the foreground or after the user force-quit it.
struct SimulatedTaskScheduler: Sendable {
    let settings: PhoneDaySettings
    private var random: SeededGenerator
    /// The pending request's earliest begin.
    private(set) var pending: Date?
    /// When the system will run the pending request; `nil` while it cannot (the app in the
    /// foreground, or force-quit).
    private(set) var grantAt: Date?
    /// Requests refused because background refresh is unavailable.
    private(set) var refusals = 0

    init(settings: PhoneDaySettings) {
        self.settings = settings
        random = SeededGenerator(seed: settings.seed)
    }

    /// Whether the system accepts requests at all.
    var isAvailable: Bool { settings.backgroundAppRefresh && !settings.lowPowerMode }

    /// `BGTaskScheduler.submit(_:)` at `now` for `earliest`; `mayRun` says whether the app may be
    /// launched now (not force-quit).
    mutating func submit(earliest: Date, now: Date, mayRun: Bool) {
        guard isAvailable else {
            refusals += 1
            return
        }
        pending = max(earliest, now)
        grantAt = mayRun ? schedule(after: max(earliest, now)) : nil
    }

    /// The app can be launched again (it moved to the background, not force-quit): a waiting
    /// request gets a time.
    mutating func appMayRun(now: Date) {
        if let pending, grantAt == nil { grantAt = schedule(after: max(pending, now)) }
    }

    /// The app cannot be launched in the background for now: a pending request waits.
    mutating func appMayNotRun() {
        grantAt = nil
    }

    /// Spends the pending request whose time has come.
    mutating func take() {
        pending = nil
        grantAt = nil
    }

    private mutating func schedule(after date: Date) -> Date {
        let range = settings.grantDelay
        let delay = range.lowerBound == range.upperBound ? range.lowerBound : Double.random(in: range, using: &random)
        return date.addingTimeInterval(delay)
    }
}
