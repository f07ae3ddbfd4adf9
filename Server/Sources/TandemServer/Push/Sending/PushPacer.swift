import Foundation
import TandemPlatform

/// When the next push to a device may go, so that the day's budget lasts through the day.
///
/// WidgetKit grants an app's widgets a daily budget of reloads and counts a pushed reload
/// against it, and iOS throttles background pushes beyond two or three an hour. A server that
/// pushes every change would spend the day's budget by mid-morning when data moves every few
/// minutes, and the widget would then show mid-morning's rows until midnight. So, per device
/// and push kind:
///
/// - The first change after a quiet period goes out at once.
/// - Under sustained change, pushes are spaced by what is left of the day's budget over what is
///   left of the active day (``PushSettings/activeDayEnd``), keeping ``PushSettings/budgetReserve``
///   pushes for the evening; after the active day, the rest of the budget is spread to midnight.
/// - Never closer than the kind's shortest interval (``PushSettings/coalescingInterval`` for
///   widgets, an hour over ``PushSettings/hostPushesPerHour`` for the host), and never more than
///   the day's budget (``PushSettings/widgetPushesPerDay``, 24 × ``PushSettings/hostPushesPerHour``):
///   a push over it waits for the next day. The day is the device's (``PushOutboxEntry/timeZone``).
///
/// ```swift
/// let pacer = PushPacer(settings: settings)
/// let at = pacer.nextAllowed(after: entry.pacing, kind: .widgets, timeZone: entry.timeZone, now: now)
/// ```
struct PushPacer: Sendable {
    /// The budgets and the active day.
    let settings: PushSettings

    /// The day's budget and the shortest interval of `kind`.
    func budget(of kind: PushRegistration.Kind) -> (perDay: Int, minimumInterval: Duration) {
        switch kind {
        case .widgets:
            return (settings.widgetPushesPerDay, settings.coalescingInterval)
        case .host:
            let perHour = max(0, settings.hostPushesPerHour)
            return (perHour * 24, perHour == 0 ? .seconds(3_600) : .seconds(3_600 / Double(perHour)))
        }
    }

    /// The earliest moment at or after `now` a push of `kind` may go to a device whose pushes
    /// so far are `state`.
    func nextAllowed(after state: PushPacingState?, kind: PushRegistration.Kind, timeZone: String?, now: Timestamp) -> Timestamp {
        let day = self.day(containing: now, timeZone: timeZone)
        let (perDay, minimumInterval) = budget(of: kind)
        let sent = state.map { $0.dayStart == day.start ? $0.sentInDay : 0 } ?? 0
        guard sent < perDay else { return day.end }
        guard let last = state?.lastSentAt else { return now }
        let remaining = perDay - sent
        let activeEnd = day.start.adding(settings.activeDayEnd)
        let reserve = max(0, settings.budgetReserve)
        let (windowEnd, spread) = now.milliseconds < activeEnd.milliseconds && remaining > reserve
            ? (activeEnd, remaining - reserve) : (day.end, remaining)
        let spacing = Duration.milliseconds(max(0, windowEnd.milliseconds - now.milliseconds) / Int64(spread))
        let allowed = last.adding(max(minimumInterval, spacing))
        return allowed.milliseconds > now.milliseconds ? allowed : now
    }

    /// `state` after a push of `kind` sent at `now`.
    func recording(_ state: PushPacingState?, timeZone: String?, sentAt now: Timestamp) -> PushPacingState {
        let day = self.day(containing: now, timeZone: timeZone)
        let sent = state.map { $0.dayStart == day.start ? $0.sentInDay : 0 } ?? 0
        return PushPacingState(dayStart: day.start, sentInDay: sent + 1, lastSentAt: now, deliveredAt: state?.deliveredAt)
    }

    /// The device's day around `now`: from its midnight to the next, in `timeZone` (UTC when
    /// `nil` or unknown).
    func day(containing now: Timestamp, timeZone: String?) -> (start: Timestamp, end: Timestamp) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: Double(now.milliseconds) / 1000)
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return (Timestamp(start), Timestamp(end))
    }
}
