/// Dates and times as backends send them, converted exactly (integer arithmetic on the proleptic
/// Gregorian calendar, no `Double`, no time zone database) to ISO 8601 in UTC.
enum BackendDate {
    private static let millisecondsPerDay: Int64 = 86_400_000
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    private static let representable: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// `YYYY-MM-DDTHH:MM:SSZ`, or `YYYY-MM-DDTHH:MM:SS.mmmZ` when the instant has milliseconds.
    /// Nil outside the years 1 to 9999.
    static func iso8601(millisecondsSince1970 milliseconds: Int64) -> String? {
        guard representable.contains(milliseconds) else { return nil }
        let days = floorDivide(milliseconds, millisecondsPerDay)
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civilDate(daysSince1970: days)
        let seconds = ofDay / 1000
        let millis = ofDay % 1000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if millis != 0 { text += ".\(pad(millis, 3))" }
        return text + "Z"
    }

    /// OData V2's `/Date(ms)/` or `/Date(ms+offset)/` (offset in minutes) as milliseconds since
    /// 1970 in UTC. As SAP's datajs reads it, the ticks are local time at the offset, so UTC is
    /// ticks minus the offset; SAP Gateway sends `+0000`.
    static func v2Milliseconds(_ text: String) -> Int64? {
        let utf8 = Array(text.utf8)
        let prefix = Array("/Date(".utf8), suffix = Array(")/".utf8)
        guard utf8.count > prefix.count + suffix.count, utf8.starts(with: prefix), utf8.suffix(2).elementsEqual(suffix)
        else { return nil }
        let body = utf8[prefix.count..<(utf8.count - suffix.count)]
        let digitsStart = body.first == UInt8(ascii: "-") ? body.index(after: body.startIndex) : body.startIndex
        let offsetStart = body[digitsStart...].firstIndex { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        let ticksText = String(decoding: body[..<(offsetStart ?? body.endIndex)], as: UTF8.self)
        guard let ticks = DecimalText.integer(ticksText, in: Int64.min...Int64.max).flatMap({ Int64($0) }) else {
            return nil
        }
        guard let offsetStart else { return ticks }
        let offsetDigits = body[body.index(after: offsetStart)...]
        guard (1...4).contains(offsetDigits.count), offsetDigits.allSatisfy(isDigit),
            let minutes = Int64(String(decoding: offsetDigits, as: UTF8.self)), minutes < 24 * 60
        else { return nil }
        let signed = body[offsetStart] == UInt8(ascii: "-") ? -minutes : minutes
        let (utc, overflow) = ticks.subtractingReportingOverflow(signed * 60_000)
        return overflow ? nil : utc
    }

    /// ISO 8601 `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM` (or `±HHMM`) as
    /// milliseconds since 1970 in UTC; without a zone only when `assumingUTC`. Fractions finer
    /// than a millisecond are cut, not rounded.
    static func isoMilliseconds(_ text: String, assumingUTC: Bool) -> Int64? {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2), scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            isValidDate(year: year, month: month, day: day), hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var millisecond: Int64 = 0
        if scanner.skip(":") {
            guard let value = scanner.number(digits: 2), value < 60 else { return nil }
            second = value
            if scanner.skip(".") {
                let fraction = scanner.digits()
                guard !fraction.isEmpty else { return nil }
                let firstThree = (fraction + [0, 0, 0]).prefix(3)
                millisecond = firstThree.reduce(0) { $0 * 10 + Int64($1) }
            }
        }
        var offsetMinutes: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetMinutes = 0
        } else if let sign = scanner.sign() {
            guard let offsetHour = scanner.number(digits: 2) else { return nil }
            _ = scanner.skip(":")
            guard let offsetMinute = scanner.number(digits: 2), offsetHour < 24, offsetMinute < 60 else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        } else if !assumingUTC {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let local = days * millisecondsPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
        return local - offsetMinutes * 60_000
    }

    /// `text` when it is a valid `YYYY-MM-DD` date of the years 1 to 9999.
    static func dateOnly(_ text: String) -> String? {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2), scanner.isAtEnd,
            isValidDate(year: year, month: month, day: day)
        else { return nil }
        return text
    }

    private static func isValidDate(year: Int64, month: Int64, day: Int64) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[Int(month - 1)]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// Reads fixed-width digit groups and separators from ASCII text, left to right.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(digits count: Int) -> Int64? {
        guard bytes.count - index >= count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<(index + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    mutating func digits() -> [UInt8] {
        var values: [UInt8] = []
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            values.append(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return values
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
