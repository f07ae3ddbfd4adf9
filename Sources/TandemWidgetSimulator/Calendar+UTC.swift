import Foundation

extension Calendar {
    /// The Gregorian calendar in UTC: the same days and hours on every machine, for
    /// reproducible traces.
    public static var utcGregorian: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }
}
