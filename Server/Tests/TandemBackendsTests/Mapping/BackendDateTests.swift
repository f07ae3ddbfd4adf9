import Testing

@testable import TandemBackends

/// Dates as backends send them, converted to ISO 8601 in UTC by integer arithmetic.
@Suite("Backend dates")
struct BackendDateTests {
    @Test(arguments: [
        ("/Date(1700000000000)/", "2023-11-14T22:13:20Z"),
        ("/Date(1700000000123)/", "2023-11-14T22:13:20.123Z"),
        ("/Date(1700000000000+0060)/", "2023-11-14T21:13:20Z"),
        ("/Date(1700000000000-0090)/", "2023-11-14T23:43:20Z"),
        ("/Date(1525357189000+0000)/", "2018-05-03T14:19:49Z"),
        ("/Date(0)/", "1970-01-01T00:00:00Z"),
        ("/Date(-1)/", "1969-12-31T23:59:59.999Z"),
        ("/Date(-62135596800000)/", "0001-01-01T00:00:00Z"),
        ("/Date(951782400000)/", "2000-02-29T00:00:00Z"),
        ("/Date(1639669234615)/", "2021-12-16T15:40:34.615Z"),
    ])
    func v2DatesAreUTC(text: String, expected: String) {
        let milliseconds = BackendDate.v2Milliseconds(text)
        #expect(milliseconds.flatMap { BackendDate.iso8601(millisecondsSince1970: $0) } == expected)
    }

    @Test(arguments: ["/Date()/", "/Date(abc)/", "/Date(1+)/", "/Date(1+00600)/", "/Date(1.5)/", "Date(1)", "/Date(1)", "/Date(+1)/", "/Date(99999999999999999999)/"])
    func malformedV2DatesAreRefused(text: String) {
        #expect(BackendDate.v2Milliseconds(text) == nil)
    }

    @Test(arguments: [
        ("2016-03-17T11:05:00.385626Z", "2016-03-17T11:05:00.385Z"),
        ("2016-04-08T23:00:49Z", "2016-04-08T23:00:49Z"),
        ("2011-05-29T14:21:12-08:00", "2011-05-29T22:21:12Z"),
        ("2011-05-29T14:21:12.5+05:30", "2011-05-29T08:51:12.500Z"),
        ("2024-01-01T00:30:00+0100", "2023-12-31T23:30:00Z"),
        ("2024-02-29T12:00Z", "2024-02-29T12:00:00Z"),
        ("2026-07-04T09:11:00.000Z", "2026-07-04T09:11:00Z"),
        ("1999-12-31T23:59:59.9999999-00:01", "2000-01-01T00:00:59.999Z"),
    ])
    func offsetsAreConvertedToUTC(text: String, expected: String) {
        let milliseconds = BackendDate.isoMilliseconds(text, assumingUTC: false)
        #expect(milliseconds.flatMap { BackendDate.iso8601(millisecondsSince1970: $0) } == expected)
    }

    @Test func aTimeWithoutAZoneIsUTCOnlyWhenAssumed() {
        #expect(BackendDate.isoMilliseconds("2023-11-14T22:13:20", assumingUTC: false) == nil)
        #expect(BackendDate.isoMilliseconds("2023-11-14T22:13:20", assumingUTC: true) == 1_700_000_000_000)
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2023-13-01T00:00:00Z", "2023-11-14T24:00:00Z", "2023-11-14T22:60:00Z",
        "2023-11-14T22:13:60Z", "2023-11-14 22:13:20Z", "2023-11-14T22:13:20.Z", "2023-11-14T22:13:20+25:00",
        "0000-01-01T00:00:00Z", "2023-11-14", "2023-11-14T22:13:20Zjunk", "23-11-14T22:13:20Z",
    ])
    func invalidTimesAreRefused(text: String) {
        #expect(BackendDate.isoMilliseconds(text, assumingUTC: true) == nil)
    }

    @Test func datesWithoutTimesAreValidatedAndKept() {
        #expect(BackendDate.dateOnly("2024-02-29") == "2024-02-29")
        #expect(BackendDate.dateOnly("1900-02-29") == nil)
        #expect(BackendDate.dateOnly("2024-2-29") == nil)
        #expect(BackendDate.dateOnly("2024-02-29T00:00:00Z") == nil)
    }

    @Test func theCalendarRoundTripsOverTheWholeRange() {
        for days in stride(from: Int64(-719_162), through: 2_932_896, by: 997) {
            let (year, month, day) = BackendDate.civilDate(daysSince1970: days)
            #expect(BackendDate.daysSince1970(year: year, month: month, day: day) == days)
        }
        #expect(BackendDate.iso8601(millisecondsSince1970: 253_402_300_800_000) == nil)
        #expect(BackendDate.iso8601(millisecondsSince1970: -62_135_596_800_001) == nil)
    }
}
