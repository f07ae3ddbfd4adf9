import Foundation
import TandemWidgetModel

/// One thing that happened to a widget instance in a ``TimelineSimulator``: what it showed,
/// or a reload it got or was refused.
public struct TimelineTraceRecord<Entry: TimelineEntry, Configuration: Codable & Hashable & Sendable>: Sendable {
    /// What happened.
    public enum Event: Sendable {
        /// The instance started showing `entry`.
        case displayed(Entry)
        /// The provider was asked for a timeline; `counted` is false when the host app was in
        /// the foreground, which costs no budget.
        case reloaded(ReloadReason, counted: Bool)
        /// A reload was due but the day's budget was spent; the last timeline stays.
        case reloadDeclined(ReloadReason)
    }

    /// When it happened, on the simulator's clock.
    public var date: Date
    /// The instance it happened to.
    public var instance: WidgetInstance<Configuration>
    /// What happened.
    public var event: Event

    /// The entry shown, for a ``Event/displayed(_:)`` record.
    public var displayedEntry: Entry? {
        if case .displayed(let entry) = event { entry } else { nil }
    }

    /// The record as a line: "09:00 systemSmall fresh 12 rows", "11:12 systemSmall reload (host)".
    ///
    /// An entry is described by `String(describing:)`, which for `WidgetContentEntry` is the
    /// content's summary.
    ///
    /// - Parameter calendar: The calendar and time zone the hour and minute are read in.
    public func line(in calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0)
        let what: String
        switch event {
        case .displayed(let entry):
            what = String(describing: entry)
        case .reloaded(let reason, let counted):
            what = counted ? "reload (\(reason.rawValue))" : "reload (\(reason.rawValue), foreground: not counted)"
        case .reloadDeclined(let reason):
            what = "reload declined: budget spent (\(reason.rawValue))"
        }
        return "\(time) \(instance.family.rawValue) \(what)"
    }

    private func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
