import Foundation

/// Fixed dates, so traces and rendered output are the same on every run.
enum TestDates {
    /// 2026-01-05 00:00 UTC, a Monday.
    static let monday = Date(timeIntervalSince1970: 1_767_571_200)

    /// `hour`:`minute` UTC on ``monday``, plus `days` days.
    static func at(_ hour: Int, _ minute: Int = 0, days: Int = 0) -> Date {
        monday.addingTimeInterval(TimeInterval(days * 86_400 + hour * 3_600 + minute * 60))
    }
}
