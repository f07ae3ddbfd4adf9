import Foundation
import TandemTool
import TandemVault

/// Measures the vault against a plain GRDB table configured like the vault's database, on the
/// same machine, with the same data, in one run; then times both ways of unlocking.
///
/// Data phase: every round builds a fresh vault (cheap fixed scrypt cost, so setup is quick)
/// and a fresh baseline, writes every item with one call each in a shared shuffled order, then
/// reads every key in another shared shuffled order and checks each value byte for byte. The two sides run in alternating
/// batches of 250 items, and each figure is the median over rounds: a noisy shared machine
/// hurts both sides alike.
struct VaultBenchmark {
    /// What to measure.
    struct Parameters: Codable, Sendable {
        /// Items written and read per round.
        var items: Int
        /// Bytes per value.
        var valueSize: Int
        /// Rounds of the data phase.
        var rounds: Int
        /// Paired-key (SPAK) unlocks timed.
        var pairedUnlocks: Int
        /// Passcode unlocks timed, at the calibrated cost.
        var passcodeUnlocks: Int
    }

    /// The data phase's times for one round.
    struct Round: Codable, Sendable {
        /// Which side ran first in this round.
        var vaultFirst: Bool
        /// Writing every item to the vault.
        var vaultWriteSeconds: Double
        /// Writing every item to the plain table.
        var plainWriteSeconds: Double
        /// Reading every item from the vault, in the shuffled order.
        var vaultReadSeconds: Double
        /// Reading every item from the plain table, in the same order.
        var plainReadSeconds: Double
    }

    /// What to measure.
    let parameters: Parameters
    /// Receives one line per step, for a person watching a long run.
    let progress: (String) -> Void

    private static let passcode = "benchmark-passcode"

    /// Runs every phase in a temporary directory, removed afterwards.
    func run() throws -> VaultBenchmarkReport {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tandem-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        progress("data: \(parameters.items) items × \(parameters.valueSize) B random values")
        let data = BenchmarkDataSet(count: parameters.items, valueSize: parameters.valueSize)

        var rounds: [Round] = []
        var lastHome: VaultHome?
        for index in 0..<parameters.rounds {
            progress("round \(index + 1)/\(parameters.rounds)")
            if let previous = lastHome {
                try previous.vault.destroy()
                try? FileManager.default.removeItem(at: previous.root)
            }
            let home = try VaultHome(root: directory.appendingPathComponent("round-\(index)", isDirectory: true))
            rounds.append(try runRound(vaultFirst: index.isMultiple(of: 2), home: home, data: data))
            lastHome = home
        }
        guard let home = lastHome else { throw CommandFailure("the benchmark needs at least one round") }

        progress("paired-key unlock × \(parameters.pairedUnlocks)")
        let paired = try pairedUnlocks(home: home, data: data)
        progress("passcode unlock × \(parameters.passcodeUnlocks) (calibrating scrypt first)")
        let passcode = try passcodeUnlocks(in: directory.appendingPathComponent("calibrated", isDirectory: true))
        return VaultBenchmarkReport(parameters: parameters, rounds: rounds, pairedUnlock: paired, passcodeUnlock: passcode)
    }

    // MARK: - Data phase

    private func runRound(vaultFirst: Bool, home: VaultHome, data: BenchmarkDataSet) throws -> Round {
        let vault = home.vault
        try vault.create(passcode: Self.passcode, policy: .default, cost: KeyDerivationOptions.fast)
        let plain = try PlainItemStore(url: home.root.appendingPathComponent("plain.sqlite"))
        defer { try? plain.close() }

        // Both sides run in alternating batches (which side leads alternates too), so a load
        // spike on this shared machine lands on both rather than on whichever ran second.
        var write = (vault: Duration.zero, plain: Duration.zero)
        for (number, batch) in batches(data.writeOrder.indices).enumerated() {
            let order = data.writeOrder[batch]
            let vaultTime = {
                try Stopwatch.measure { for index in order { try vault.set(data.values[index], forKey: data.keys[index]) } }
            }
            let plainTime = {
                try Stopwatch.measure { for index in order { try plain.set(data.values[index], id: data.ids[index]) } }
            }
            if number.isMultiple(of: 2) == vaultFirst {
                write.vault += try vaultTime()
                write.plain += try plainTime()
            } else {
                write.plain += try plainTime()
                write.vault += try vaultTime()
            }
        }

        // Results are checked after the clock stops, so the check costs neither side.
        var vaultResults = [Data?](repeating: nil, count: data.keys.count)
        var plainResults = vaultResults
        var read = (vault: Duration.zero, plain: Duration.zero)
        for (number, batch) in batches(data.readOrder.indices).enumerated() {
            let order = data.readOrder[batch]
            let vaultTime = {
                try Stopwatch.measure { for index in order { vaultResults[index] = try vault.data(forKey: data.keys[index]) } }
            }
            let plainTime = {
                try Stopwatch.measure { for index in order { plainResults[index] = try plain.value(id: data.ids[index]) } }
            }
            if number.isMultiple(of: 2) == vaultFirst {
                read.vault += try vaultTime()
                read.plain += try plainTime()
            } else {
                read.plain += try plainTime()
                read.vault += try vaultTime()
            }
        }
        try data.verify(vaultResults, side: "vault")
        try data.verify(plainResults, side: "plain")

        return Round(
            vaultFirst: vaultFirst, vaultWriteSeconds: write.vault.seconds, plainWriteSeconds: write.plain.seconds,
            vaultReadSeconds: read.vault.seconds, plainReadSeconds: read.plain.seconds)
    }

    /// `range` cut into consecutive batches of ``batchSize``.
    private func batches(_ range: Range<Int>) -> [Range<Int>] {
        stride(from: range.lowerBound, to: range.upperBound, by: Self.batchSize).map { start in
            start..<min(start + Self.batchSize, range.upperBound)
        }
    }

    /// Items per alternating batch in the data phase.
    static let batchSize = 250

    // MARK: - Unlocking

    private func pairedUnlocks(home: VaultHome, data: BenchmarkDataSet) throws -> SampleStatistics {
        let vault = home.vault
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try home.auxiliaryShare()
        var samples: [Duration] = []
        for _ in 0..<parameters.pairedUnlocks {
            samples.append(try Stopwatch.measure {
                vault.lock()
                try vault.unlock(pairedKey: share)
            })
        }
        guard let first = data.keys.first, try vault.data(forKey: first) == data.values.first else {
            throw CommandFailure("benchmark invalid: the vault opened by the paired key does not read its items")
        }
        return SampleStatistics(samples)
    }

    private func passcodeUnlocks(in directory: URL) throws -> SampleStatistics {
        let vault = try VaultHome(root: directory).vault
        try vault.create(passcode: Self.passcode, policy: .default, cost: .calibrated())
        defer { try? vault.destroy() }
        var samples: [Duration] = []
        for _ in 0..<parameters.passcodeUnlocks {
            vault.lock()
            samples.append(try Stopwatch.measure { try vault.unlock(passcode: Self.passcode) })
        }
        return SampleStatistics(samples)
    }
}
