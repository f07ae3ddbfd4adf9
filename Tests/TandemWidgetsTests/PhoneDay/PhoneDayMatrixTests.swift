import Foundation
@testable import TandemWidgetSimulator
import Testing

/// The matrix's grid and its rules, on made-up days: each rule names the cell that breaks it,
/// and after a restart the goals in minutes count from the first unlock.
@Suite("Phone day matrix")
struct PhoneDayMatrixTests {
    static let midnight = Date(timeIntervalSince1970: 1_894_060_800)

    @Test("60 cells: five paces, two active days, six uses of the phone, each with its settings")
    func theGrid() throws {
        let cells = PhoneDayMatrix.cells
        #expect(cells.count == 60 && Set(cells).count == 60)
        let restart = try #require(cells.first { $0.situation == .restart && $0.pace == 5 && $0.activeFrom == 6 })
        let settings = restart.settings(start: Self.midnight)
        #expect(settings.firstUnlock == 7.5 * 3_600 && settings.forceQuit && settings.appOpens.count == 3)
        #expect(settings.dataChanges.count == 193 && settings.dataChanges.first == 6 * 3_600 && settings.dataChanges.last == 22 * 3_600)
        for cell in cells { try cell.settings(start: Self.midnight).validate() }
        #expect(restart.label == "every 5 min, 06–22, restart, unlock 7:30")
    }

    @Test("each rule names the cell that breaks it")
    func rulesNameTheirCells() {
        let busy = PhoneDayMatrix.Cell(pace: 5, activeFrom: 6, activeUntil: 22, situation: .neverOpened)
        let fine = Self.entry(busy, pushed: 20 * 60, direct: 36 * 60)
        #expect(PhoneDayMatrixReport(entries: [fine]).violations().isEmpty)

        let staler = Self.entry(busy, pushed: 29 * 60, direct: 25 * 60)
        #expect(PhoneDayMatrixReport(entries: [staler]).violations() == ["every 5 min, 06–22, never opened: pushed p95 29 min is staler than direct's 25 min"])
        let slow = Self.entry(busy, pushed: 31 * 60, direct: 40 * 60)
        #expect(PhoneDayMatrixReport(entries: [slow]).violations().first?.contains("not under 30 min") == true)
        var dropped = fine
        dropped.report.modes[1].pushes = [PhoneDayModeReport.Push(date: Self.midnight, kind: .widgets, outcome: .overBudget)]
        #expect(PhoneDayMatrixReport(entries: [dropped]).violations() == ["every 5 min, 06–22, never opened: the phone dropped 1 of pushed's pushes over budget"])
        var overspent = fine
        overspent.report.modes[0].reloadsUsed = 51
        #expect(PhoneDayMatrixReport(entries: [overspent]).violations().first?.contains("direct used 51 reloads, over the budget of 50") == true)
    }

    @Test("after a restart the goals in minutes count from the first unlock; the comparison takes the whole day")
    func restartsCountFromTheUnlock() {
        let cell = PhoneDayMatrix.Cell(pace: 30, activeFrom: 6, activeUntil: 22, situation: .restart)
        // Nothing readable until 7:30 in either mode; then the pushed widget keeps up.
        let locked = { (minute: Int) -> TimeInterval in minute < 450 ? TimeInterval(minute * 60) : 0 }
        let entry = Self.entry(cell, pushed: locked, direct: { minute in minute < 480 ? TimeInterval(minute * 60) : 1_200 })
        #expect(entry.unlockedFrom == Self.midnight.addingTimeInterval(7.5 * 3_600))
        #expect(PhoneDayMatrixReport(entries: [entry]).violations().isEmpty)
        #expect(entry.report.modes[1].p95Staleness > 5 * 60, "the whole day's p95 is the locked night's")
    }

    /// A cell whose direct and pushed widgets are as stale as `direct` and `pushed` seconds all day.
    static func entry(_ cell: PhoneDayMatrix.Cell, pushed: TimeInterval, direct: TimeInterval) -> PhoneDayMatrixReport.Entry {
        entry(cell, pushed: { _ in pushed }, direct: { _ in direct })
    }

    /// A cell whose widgets' staleness at each minute of the day is `pushed(minute)` and `direct(minute)`.
    static func entry(
        _ cell: PhoneDayMatrix.Cell, pushed: (Int) -> TimeInterval, direct: (Int) -> TimeInterval
    ) -> PhoneDayMatrixReport.Entry {
        func mode(_ name: String, _ staleness: (Int) -> TimeInterval) -> PhoneDayModeReport {
            PhoneDayModeReport(
                mode: name, samples: (0..<1_440).map { PhoneDaySample(date: midnight.addingTimeInterval(TimeInterval($0 * 60)), staleness: staleness($0)) },
                reloadsUsed: 30, reloads: [], declinedReloads: 0, backgroundRuns: [], refusedRequests: 0, appOpens: [])
        }
        let settings = cell.settings(start: midnight)
        return PhoneDayMatrixReport.Entry(
            cell: cell, report: PhoneDayReport(settings: settings, dataChanges: [], modes: [mode("direct", direct), mode("pushed", pushed)]))
    }
}
