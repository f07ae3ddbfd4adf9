import Foundation

/// The day's fixed events in time order: the user's unlock, opening the app and leaving it, the
/// server's data changes, the user's taps on the widget's Approve.
struct PhoneDayAgenda: Sendable {
    enum Event: Sendable, Equatable {
        case unlock
        case change(version: Int)
        case open
        case background
        /// The user taps Approve on the widget (the `number`th tap of the day, from 1).
        case tap(number: Int)
    }

    private var events: [(date: Date, event: Event)]

    init(settings: PhoneDaySettings) {
        let start = settings.start
        var events: [(date: Date, event: Event)] = []
        if let unlock = settings.firstUnlock { events.append((start.addingTimeInterval(unlock), .unlock)) }
        for (index, change) in settings.dataChanges.sorted().enumerated() {
            events.append((start.addingTimeInterval(change), .change(version: index + 1)))
        }
        for open in settings.appOpens.sorted() {
            events.append((start.addingTimeInterval(open), .open))
            events.append((start.addingTimeInterval(open + settings.foregroundDuration), .background))
        }
        for (index, tap) in settings.taps.sorted().enumerated() {
            events.append((start.addingTimeInterval(tap), .tap(number: index + 1)))
        }
        // Stable by date; at one instant the order above (unlock, change, open, background, tap) holds.
        self.events = events.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
    }

    /// The date of the next event.
    var nextDate: Date? { events.first?.date }

    /// Removes and returns the events due at or before `date`.
    mutating func take(dueAt date: Date) -> [Event] {
        let due = events.prefix { $0.date <= date }
        events.removeFirst(due.count)
        return due.map(\.event)
    }
}
