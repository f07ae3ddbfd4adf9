import ArgumentParser
import Foundation

/// `tandem bench vault`: the vault against a plain GRDB table, and both ways of unlocking.
struct BenchVault: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Benchmark the vault's reads, writes and unlocks against a plain database.",
        discussion: "Progress goes to standard error, the table to standard output.")

    @Option(name: .long, help: "Items written and read per round.")
    var items = 10_000

    @Option(name: .long, help: "Bytes per value.")
    var valueSize = 1024

    @Option(name: .long, help: "Rounds of the data phase; the median round is reported.")
    var rounds = 5

    @Option(name: .long, help: "Paired-key (SPAK) unlocks to time.")
    var pairedUnlocks = 200

    @Option(name: .long, help: "Passcode unlocks to time, at the calibrated cost.")
    var passcodeUnlocks = 5

    @Option(name: .long, help: "Also write the figures as JSON to this file.")
    var json: String?

    func validate() throws {
        for (name, value) in [("--items", items), ("--rounds", rounds), ("--paired-unlocks", pairedUnlocks),
                              ("--passcode-unlocks", passcodeUnlocks)] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        guard valueSize >= 0 else { throw ValidationError("--value-size must not be negative") }
    }

    func run() throws {
        let parameters = VaultBenchmark.Parameters(
            items: items, valueSize: valueSize, rounds: rounds,
            pairedUnlocks: pairedUnlocks, passcodeUnlocks: passcodeUnlocks)
        let benchmark = VaultBenchmark(parameters: parameters) { step in
            FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
        }
        let report = try benchmark.run()
        print(VaultBenchmarkTable(report: report).text)
        if let json {
            try report.writeJSON(to: URL(fileURLWithPath: json))
            print("figures written to \(json)")
        }
    }
}
