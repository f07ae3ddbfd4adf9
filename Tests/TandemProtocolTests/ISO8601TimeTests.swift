import Foundation
import PropertyBased
import TandemProtocol
import Testing

/// The hand-written ISO 8601 spelling against Foundation's, over random instants from 1900 to
/// 2200, and the texts it must refuse.
struct ISO8601TimeTests {
    /// Milliseconds from 1900-01-01 to 2200-01-01.
    static let instants = Gen.int(in: -2_208_988_800_000...7_258_118_400_000)

    /// Foundation is the oracle for the calendar: whole seconds, where its own floating-point
    /// truncation of the fraction (it writes `.476` for a date made from 1.477 s) cannot differ.
    @Test func itWritesTheCalendarFoundationWrites() async {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let whole = Date.ISO8601FormatStyle()
        await propertyCheck(count: 2000, input: Self.instants) { milliseconds in
            let date = Date(timeIntervalSince1970: Double(milliseconds / 1000))
            #expect(ISO8601Time.string(from: date) == withFraction.format(date))
            #expect(ISO8601Time.string(from: date, fractionalSeconds: false) == whole.format(date))
        }
    }

    @Test func theFractionIsTheMillisecondTheDateWasMadeFrom() {
        #expect(ISO8601Time.string(from: Date(timeIntervalSince1970: 20_315_784.477)) == "1970-08-24T03:16:24.477Z")
        #expect(ISO8601Time.string(from: Date(timeIntervalSince1970: 0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Time.string(from: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00.000Z")
        #expect(ISO8601Time.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    }

    @Test func itReadsBackEveryInstantItWritesToTheMillisecond() async {
        await propertyCheck(count: 2000, input: Self.instants) { milliseconds in
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let read = ISO8601Time.date(from: ISO8601Time.string(from: date))
            #expect(read.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == Int64(milliseconds))
        }
    }

    @Test func offsetsAndFractionsNameTheSameInstant() throws {
        let utc = try #require(ISO8601Time.date(from: "2025-03-14T09:30:00Z"))
        #expect(ISO8601Time.date(from: "2025-03-14T10:30:00+01:00") == utc)
        #expect(ISO8601Time.date(from: "2025-03-14T04:00:00-05:30") == utc)
        #expect(ISO8601Time.date(from: "2025-03-14T09:30:00.000Z") == utc)
        let quarter = try #require(ISO8601Time.date(from: "2025-03-14T09:30:00.25Z"))
        #expect(quarter.timeIntervalSince(utc) == 0.25)
        #expect(ISO8601Time.date(from: "2024-02-29T00:00:00Z") != nil)
    }

    @Test(arguments: [
        "", "2025-03-14", "2025-03-14T09:30Z", "2025-03-14 09:30:00Z", "2025-03-14T09:30:00", "2025-02-30T00:00:00Z",
        "2023-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-03-14T24:00:00Z", "2025-03-14T09:60:00Z",
        "2025-03-14T09:30:60Z", "2025-03-14T09:30:00.Z", "2025-03-14T09:30:00.1234567890Z", "2025-03-14T09:30:00+0100",
        "2025-03-14T09:30:00Zjunk", "２０２５-03-14T09:30:00Z", "+2025-03-14T09:30:00Z",
    ])
    func malformedTextIsRefused(text: String) {
        #expect(ISO8601Time.date(from: text) == nil)
    }
}
