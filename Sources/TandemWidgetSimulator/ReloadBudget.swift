import Foundation

/// How many counted reloads one instance has had on the current day.
struct ReloadBudget: Sendable {
    let dailyLimit: Int
    private var day: Date?
    private(set) var used = 0

    init(dailyLimit: Int) {
        self.dailyLimit = dailyLimit
    }

    /// Whether a counted reload is still allowed on the day `dayStart`.
    mutating func hasRoom(onDayStarting dayStart: Date) -> Bool {
        rollOver(to: dayStart)
        return used < dailyLimit
    }

    /// Charges one reload to the day `dayStart`.
    mutating func charge(onDayStarting dayStart: Date) {
        rollOver(to: dayStart)
        used += 1
    }

    private mutating func rollOver(to dayStart: Date) {
        if day != dayStart {
            day = dayStart
            used = 0
        }
    }
}
