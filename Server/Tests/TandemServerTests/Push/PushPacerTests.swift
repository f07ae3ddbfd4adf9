import Foundation
@testable import TandemServer
import Testing

/// The pacing of one device's pushes, on its own: the first change after a quiet period goes at
/// once; sustained change is spread over what is left of the active day; never past the day's
/// budget; the day is the device's.
@Suite("Push pacer")
struct PushPacerTests {
    /// 2030-01-07 00:00 UTC.
    static let midnight = Timestamp(milliseconds: 1_894_060_800_000)
    static let pacer = PushPacer(settings: PushSettings())

    static func at(_ hours: Double) -> Timestamp {
        midnight.adding(.seconds(hours * 3_600))
    }

    @Test("the first push, and the first after a quiet period, go at once")
    func quietPeriodsGoAtOnce() {
        #expect(Self.pacer.nextAllowed(after: nil, kind: .widgets, timeZone: nil, now: Self.at(9)) == Self.at(9))
        let state = Self.pacer.recording(nil, timeZone: nil, sentAt: Self.at(9))
        #expect(Self.pacer.nextAllowed(after: state, kind: .widgets, timeZone: nil, now: Self.at(10)) == Self.at(10), "an hour is quiet enough")
    }

    @Test("under sustained change, pushes are spread so that the budget lasts to the active day's end")
    func sustainedChangeIsSpread() {
        // A change every minute from 6:00 to 22:00: push whenever allowed.
        var state: PushPacingState?
        var sent: [Timestamp] = []
        var now = Self.at(6)
        while now < Self.at(24) {
            let changing = now < Self.at(22)
            if changing, Self.pacer.nextAllowed(after: state, kind: .widgets, timeZone: nil, now: now) <= now {
                sent.append(now)
                state = Self.pacer.recording(state, timeZone: nil, sentAt: now)
            }
            now = now.adding(.seconds(60))
        }
        #expect(sent.count <= 40 && sent.count >= 37, "\(sent.count) pushes")
        let gaps = zip(sent.dropFirst(), sent).map { Double($0.milliseconds - $1.milliseconds) / 60_000 }
        #expect(gaps.allSatisfy { $0 >= 5 }, "never closer than the coalescing interval")
        #expect((gaps.max() ?? 0) < 30, "never a gap over half an hour while the data moves: \(gaps)")
        #expect(sent.last.map { $0 >= Self.at(21) } == true, "still pushing in the evening")
    }

    @Test("a spent budget waits for the device's next day; the day begins at its midnight")
    func budgetsAreDaily() {
        let spent = PushPacingState(dayStart: Self.midnight, sentInDay: 40, lastSentAt: Self.at(12))
        #expect(Self.pacer.nextAllowed(after: spent, kind: .widgets, timeZone: nil, now: Self.at(13)) == Self.at(24))
        let yesterday = PushPacingState(dayStart: Self.at(-24), sentInDay: 40, lastSentAt: Self.at(-1))
        #expect(Self.pacer.nextAllowed(after: yesterday, kind: .widgets, timeZone: nil, now: Self.at(1)) == Self.at(1), "a new day, a new budget")

        // In Berlin (UTC+1 in January) the day began at 23:00 UTC.
        let berlin = Self.pacer.day(containing: Self.at(12), timeZone: "Europe/Berlin")
        #expect(berlin.start == Self.at(-1) && berlin.end == Self.at(23))
        #expect(Self.pacer.day(containing: Self.at(12), timeZone: "Not/AZone").start == Self.midnight, "an unknown zone counts as UTC")
    }

    @Test("the host gets at most two background pushes in any hour")
    func hostPushesAreHourly() {
        var state: PushPacingState?
        var sent: [Timestamp] = []
        var now = Self.at(8)
        while now < Self.at(12) {
            if Self.pacer.nextAllowed(after: state, kind: .host, timeZone: nil, now: now) <= now {
                sent.append(now)
                state = Self.pacer.recording(state, timeZone: nil, sentAt: now)
            }
            now = now.adding(.seconds(60))
        }
        for start in sent {
            #expect(sent.filter { $0 >= start && $0.milliseconds - start.milliseconds < 3_600_000 }.count <= 2)
        }
        #expect(sent.count == 8, "\(sent.count) in four hours")
    }
}
