#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one spelling of a point in time on the wire and in the shared container: RFC 3339 in UTC
/// with milliseconds (`2025-03-14T09:30:00.250Z`), read back with or without fractional seconds
/// and with any offset (`2025-03-14T10:30:00+01:00`).
///
/// ```swift
/// let text = ISO8601Time.string(from: event.timestamp)   // "2025-03-14T09:30:00.250Z"
/// let date = ISO8601Time.date(from: text)                // the same instant, to the millisecond
/// ```
///
/// Written out rather than with Foundation's ISO 8601 styles on purpose: on Linux the first use
/// of any of those loads calendar and time-zone data, 5–8 MB of resident memory measured in a
/// bare process, and a widget extension is stopped at about 30 MB. The arithmetic is the
/// proleptic Gregorian calendar's (days from 1970-01-01, in whole 400-year eras), and a property
/// test checks it against Foundation over random instants.
public enum ISO8601Time {
    /// `date` in UTC to the nearest millisecond: `YYYY-MM-DDThh:mm:ss.sssZ`, or without the
    /// `.sss` (the seconds then truncated) when `fractionalSeconds` is `false`. The nearest, not
    /// the one below: a date made from whole milliseconds (`1.477` seconds) is a hair below them
    /// in binary, and is written as it was made.
    public static func string(from date: Date, fractionalSeconds: Bool = true) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, inDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = inDay / 1000
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if fractionalSeconds { text += "." + pad(inDay % 1000, 3) }
        return text + "Z"
    }

    /// The instant `text` names: `YYYY-MM-DDThh:mm:ss`, optionally `.` and 1–9 digits, then `Z`
    /// or an offset `±hh:mm`. `nil` for anything else, including a date that does not exist
    /// (February 30th) or a field out of range.
    public static func date(from text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            guard let (value, count) = scanner.digits(upTo: 9) else { return nil }
            fraction = Double(value) / (0..<count).reduce(1.0) { power, _ in power * 10 }
        }
        var offset: Int64 = 0
        if !scanner.skip("Z") {
            guard let sign = scanner.sign(), let hours = scanner.number(digits: 2), scanner.skip(":"),
                let minutes = scanner.number(digits: 2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.atEnd else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// A `JSONEncoder` date strategy writing ``string(from:fractionalSeconds:)``.
    public static func encodingStrategy(fractionalSeconds: Bool = true) -> JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date, fractionalSeconds: fractionalSeconds))
        }
    }

    /// A `JSONDecoder` date strategy reading ``date(from:)``.
    public static var decodingStrategy: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date-time")
            }
            return date
        }
    }

    // MARK: - The calendar

    /// Year, month and day of the day `days` after 1970-01-01 (proleptic Gregorian).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let (era, dayOfEra) = floorDivision(shifted, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day`.
    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivision(marchYear, 400)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Quotient rounded towards minus infinity, and the remainder that goes with it (never negative).
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Reads the ASCII of a date-time from left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += digits
            return value
        }

        /// One to `limit` decimal digits, and how many there were.
        mutating func digits(upTo limit: Int) -> (Int64, Int)? {
            var value: Int64 = 0
            var count = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                guard count < limit else { return nil }
                value = value * 10 + Int64(bytes[index] - 0x30)
                count += 1
                index += 1
            }
            return count == 0 ? nil : (value, count)
        }

        /// `+1` or `-1` for a `+` or `-`.
        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
