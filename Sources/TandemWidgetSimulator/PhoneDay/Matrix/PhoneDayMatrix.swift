import Foundation

/// A grid of phone days: every data pace against every active day and every way the phone is
/// used, so that a rule about staleness and budgets is checked where it is hard, not only on the
/// default day.
///
/// Each ``Cell`` is one ``PhoneDay`` (``Cell/settings(start:)``); ``PhoneDayMatrixReport`` holds
/// their reports, prints one table, checks the rules and draws the heat map.
///
/// ```swift
/// for cell in PhoneDayMatrix.cells {
///     let report = try await simulate(cell.settings(start: midnight))
/// }
/// ```
public enum PhoneDayMatrix {
    /// How the phone is used through the day.
    public enum Situation: String, CaseIterable, Codable, Hashable, Sendable {
        /// The app is never opened.
        case neverOpened = "never opened"
        /// The app is opened once, at 12:30.
        case openedOnce = "opened once"
        /// The app is opened at 8:00, 12:30 and 18:00.
        case openedThreeTimes = "opened 3 times"
        /// Opened three times and swiped away each time.
        case forceQuit = "force-quit"
        /// Opened three times, Low Power Mode all day.
        case lowPowerMode = "Low Power Mode"
        /// The phone restarted overnight and is first unlocked at 7:30; opened three times, force-quit.
        case restart = "restart, unlock 7:30"
    }

    /// One day of the grid.
    public struct Cell: Codable, Hashable, Sendable {
        /// Minutes between two changes of the server's data during the active day.
        public var pace: Int
        /// The hour the data starts changing.
        public var activeFrom: Int
        /// The hour it last changes.
        public var activeUntil: Int
        /// How the phone is used.
        public var situation: Situation

        /// A cell.
        public init(pace: Int, activeFrom: Int, activeUntil: Int, situation: Situation) {
            self.pace = pace
            self.activeFrom = activeFrom
            self.activeUntil = activeUntil
            self.situation = situation
        }

        /// "every 5 min, 06–22, never opened".
        public var label: String {
            "every \(pace) min, \(Self.hour(activeFrom))–\(Self.hour(activeUntil)), \(situation.rawValue)"
        }

        /// "06–22".
        public var activeDay: String { "\(Self.hour(activeFrom))–\(Self.hour(activeUntil))" }

        /// The day's settings: the defaults, with this cell's data changes and use of the phone.
        public func settings(start: Date) -> PhoneDaySettings {
            var settings = PhoneDaySettings(start: start)
            settings.dataChanges = Array(stride(from: TimeInterval(activeFrom * 3_600), through: TimeInterval(activeUntil * 3_600), by: TimeInterval(pace * 60)))
            let threeTimes: [TimeInterval] = [8 * 3_600, 12.5 * 3_600, 18 * 3_600]
            switch situation {
            case .neverOpened:
                settings.appOpens = []
            case .openedOnce:
                settings.appOpens = [12.5 * 3_600]
            case .openedThreeTimes:
                settings.appOpens = threeTimes
            case .forceQuit:
                settings.appOpens = threeTimes
                settings.forceQuit = true
            case .lowPowerMode:
                settings.appOpens = threeTimes
                settings.lowPowerMode = true
            case .restart:
                settings.appOpens = threeTimes
                settings.forceQuit = true
                settings.firstUnlock = 7.5 * 3_600
            }
            return settings
        }

        private static func hour(_ hour: Int) -> String { hour < 10 ? "0\(hour)" : "\(hour)" }
    }

    /// The data paces, in minutes.
    public static let paces = [2, 5, 10, 30, 120]
    /// The active days: when the data changes.
    public static let activeDays = [(from: 9, until: 17), (from: 6, until: 22)]

    /// Every cell: by active day, then situation, then pace.
    public static var cells: [Cell] {
        activeDays.flatMap { day in
            Situation.allCases.flatMap { situation in
                paces.map { Cell(pace: $0, activeFrom: day.from, activeUntil: day.until, situation: situation) }
            }
        }
    }
}
