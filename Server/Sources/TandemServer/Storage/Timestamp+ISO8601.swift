import TandemProtocol

extension Timestamp {
    /// Parses an RFC 3339 / ISO 8601 date-time with a time zone, with or without fractional
    /// seconds (`2025-03-14T09:30:00Z`, `2025-03-14T10:30:00.250+01:00`); `nil` for anything else
    /// (`ISO8601Time/date(from:)`).
    init?(iso8601 text: String) {
        guard let date = ISO8601Time.date(from: text) else { return nil }
        self.init(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The time in UTC as ISO 8601 with milliseconds, e.g. `2025-03-14T09:30:00.000Z`.
    var iso8601: String {
        ISO8601Time.string(from: date)
    }
}
