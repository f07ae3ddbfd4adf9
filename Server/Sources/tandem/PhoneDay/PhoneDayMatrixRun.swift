import Foundation
import TandemWidgetSimulator

/// Runs every cell of the ``TandemWidgetSimulator/PhoneDayMatrix`` as a phone day against its
/// own real server (``PhoneDaySimulation``), several at once, and gathers their reports in the
/// matrix's order; `progress` is told each cell done.
enum PhoneDayMatrixRun {
    /// The cells run at once: each is mostly waiting on its loopback server, so three per core
    /// (on 2 cores, 6 at once ran the matrix in 47–49 s where 4 took 49–54 s; 41 s since the days
    /// send through ``PhoneDayTransport``).
    static var concurrency: Int { max(2, ProcessInfo.processInfo.activeProcessorCount * 3) }

    /// Plays `cells` on `date` (midnight UTC) for `modes`, with the server pushing.
    static func run(
        cells: [PhoneDayMatrix.Cell], date: Date, modes: [PhoneDayWidgetMode], progress: @escaping @Sendable (Int, Int, PhoneDayMatrix.Cell) -> Void
    ) async throws -> PhoneDayMatrixReport {
        var reports: [Int: PhoneDayReport] = [:]
        let order = startingOrder(cells)
        try await withThrowingTaskGroup(of: (Int, PhoneDayReport).self) { group in
            var next = 0
            func start() {
                let index = order[next]
                let cell = cells[index]
                group.addTask { (index, try await PhoneDaySimulation.run(settings: cell.settings(start: date), modes: modes)) }
                next += 1
            }
            while next < min(concurrency, cells.count) { start() }
            while let (index, report) = try await group.next() {
                reports[index] = report
                progress(reports.count, cells.count, cells[index])
                if next < cells.count { start() }
            }
        }
        return PhoneDayMatrixReport(entries: cells.indices.compactMap { index in
            reports[index].map { PhoneDayMatrixReport.Entry(cell: cells[index], report: $0) }
        })
    }

    /// The cells' indices, longest day first: a day's work grows with its data changes, so the
    /// longest start while the others fill the cores, and the matrix does not end waiting on
    /// one long day alone.
    static func startingOrder(_ cells: [PhoneDayMatrix.Cell]) -> [Int] {
        func changes(_ cell: PhoneDayMatrix.Cell) -> Int { (cell.activeUntil - cell.activeFrom) * 60 / cell.pace }
        return cells.indices.sorted { (changes(cells[$1]), $0) < (changes(cells[$0]), $1) }
    }
}
