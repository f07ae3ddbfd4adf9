import Foundation

/// Renders a ``VaultBenchmarkReport`` as the plain-text table `tandem bench vault` prints.
struct VaultBenchmarkTable {
    /// The figures to render.
    let report: VaultBenchmarkReport

    /// The whole table, header included, ending without a newline.
    var text: String {
        let parameters = report.parameters
        let machine = report.machine
        var lines = [
            "Tandem vault benchmark — \(report.date.formatted(.iso8601))",
            "machine:   \(machine.cores) cores, \(machine.operatingSystem), \(machine.buildConfiguration) build",
            "data:      \(parameters.items) items × \(parameters.valueSize) B random values, one call per write,",
            "           keys written and read in two shuffled orders shared by both sides, each value checked byte for byte",
            "baseline:  plain GRDB table configured like the vault's (WAL, synchronous=NORMAL, cached statements)",
            "rounds:    \(parameters.rounds), both sides interleaved in batches of \(VaultBenchmark.batchSize); the median round is shown",
        ]
        if machine.buildConfiguration != "release" {
            lines.append("WARNING:   debug build; run `swift run -c release tandem bench vault` for real figures")
        }
        lines.append("")
        lines.append(row(["data phase", "vault ops/s", "plain ops/s", "vault/plain", "goal", "result"], Self.dataWidths))
        lines.append(row("write (shuffled)", report.write))
        lines.append(row("read (shuffled)", report.read))
        lines.append("")
        lines.append(row(["unlock", "median", "p99", "goal", "result"], Self.unlockWidths))
        lines.append(row("paired key (SPAK) ×\(report.pairedUnlock.samples)", report.pairedUnlock))
        lines.append(row("passcode, calibrated ×\(report.passcodeUnlock.samples)", report.passcodeUnlock))
        lines.append("")
        lines.append(row(["round (seconds)", "vault write", "plain write", "vault read", "plain read", "first"], Self.dataWidths))
        for (index, round) in report.rounds.enumerated() {
            lines.append(row([
                "\(index + 1)", Self.fixed(round.vaultWriteSeconds, 3), Self.fixed(round.plainWriteSeconds, 3),
                Self.fixed(round.vaultReadSeconds, 3), Self.fixed(round.plainReadSeconds, 3),
                round.vaultFirst ? "vault" : "plain",
            ], Self.dataWidths))
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ label: String, _ comparison: VaultBenchmarkReport.Comparison) -> String {
        row([
            label, Self.fixed(comparison.vaultOpsPerSecond, 0), Self.fixed(comparison.plainOpsPerSecond, 0),
            Self.fixed(comparison.ratio, 2) + "x", "≤ " + Self.fixed(comparison.goal, 2) + "x",
            comparison.pass ? "PASS" : "MISS",
        ], Self.dataWidths)
    }

    private func row(_ label: String, _ latency: VaultBenchmarkReport.Latency) -> String {
        row([
            label, Self.fixed(latency.medianMilliseconds, 3) + " ms", Self.fixed(latency.p99Milliseconds, 3) + " ms",
            latency.goal, latency.pass ? "PASS" : "MISS",
        ], Self.unlockWidths)
    }

    private static let dataWidths = [26, 13, 13, 13, 12, 8]
    private static let unlockWidths = [26, 13, 13, 21, 8]

    /// Left-aligns the first column and right-aligns the others to `widths`.
    private func row(_ cells: [String], _ widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { index, cell in
            let padding = String(repeating: " ", count: max(0, cell.1 - cell.0.count))
            return index == 0 ? cell.0 + padding : padding + cell.0
        }.joined()
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
