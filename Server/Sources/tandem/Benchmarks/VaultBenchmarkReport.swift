import Foundation
import TandemTool

/// The benchmark's figures, all from one run on one machine: printed as a table by
/// ``VaultBenchmarkTable`` and written as JSON with `--json`.
struct VaultBenchmarkReport: Codable, Sendable {
    /// The cost of the vault over the plain table for one kind of operation.
    struct Comparison: Codable, Sendable {
        /// Vault operations per second in the median round.
        var vaultOpsPerSecond: Double
        /// Plain-table operations per second in the median round.
        var plainOpsPerSecond: Double
        /// Vault time over plain time (1.25 means the vault takes 25 % longer).
        var ratio: Double
        /// The largest acceptable ratio.
        var goal: Double
        /// Whether ``ratio`` is within ``goal``.
        var pass: Bool

        /// Compares the median round's times for `items` operations on each side.
        init(items: Int, vaultSeconds: Double, plainSeconds: Double, goal: Double) {
            vaultOpsPerSecond = Double(items) / vaultSeconds
            plainOpsPerSecond = Double(items) / plainSeconds
            ratio = vaultSeconds / plainSeconds
            self.goal = goal
            pass = ratio <= goal
        }
    }

    /// The timings of one way of unlocking.
    struct Latency: Codable, Sendable {
        /// How many unlocks were timed.
        var samples: Int
        /// The median unlock.
        var medianMilliseconds: Double
        /// The 99th percentile (nearest rank): the slowest unlock for fewer than 100 samples.
        var p99Milliseconds: Double
        /// The goal for the median, in words.
        var goal: String
        /// Whether the median meets the goal.
        var pass: Bool
    }

    /// Where the figures were taken.
    struct Machine: Codable, Sendable {
        /// Active processor cores.
        var cores: Int
        /// The operating system's name and version.
        var operatingSystem: String
        /// `release` or `debug`: a debug build's figures say little.
        var buildConfiguration: String

        /// This process's machine and build.
        static var current: Machine {
            #if DEBUG
            let configuration = "debug"
            #else
            let configuration = "release"
            #endif
            return Machine(
                cores: ProcessInfo.processInfo.activeProcessorCount,
                operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
                buildConfiguration: configuration)
        }
    }

    /// When the run finished.
    var date: Date
    /// Where it ran.
    var machine: Machine
    /// What was measured.
    var parameters: VaultBenchmark.Parameters
    /// Every round of the data phase, in the order run.
    var rounds: [VaultBenchmark.Round]
    /// Writes, one item per call, in a shuffled key order.
    var write: Comparison
    /// Reads of every key in the shuffled order.
    var read: Comparison
    /// `lock()` then `unlock(pairedKey:)`, the extension-request path.
    var pairedUnlock: Latency
    /// `unlock(passcode:)` at the calibrated scrypt cost.
    var passcodeUnlock: Latency

    /// The largest acceptable vault/plain time ratio for reads and writes.
    static let ratioGoal = 1.30
    /// The largest acceptable median paired-key unlock, in milliseconds.
    static let pairedUnlockGoal = 2.0
    /// The acceptable median passcode unlock, in milliseconds: slow enough to hurt guessing,
    /// fast enough for a person.
    static let passcodeUnlockGoal = 100.0...400.0

    /// Summarises the measurements: medians over rounds, goals checked.
    init(
        parameters: VaultBenchmark.Parameters, rounds: [VaultBenchmark.Round],
        pairedUnlock: SampleStatistics, passcodeUnlock: SampleStatistics
    ) {
        func median(_ seconds: (VaultBenchmark.Round) -> Double) -> Double {
            SampleStatistics(rounds.map { .seconds(seconds($0)) }).median.seconds
        }
        date = Date()
        machine = .current
        self.parameters = parameters
        self.rounds = rounds
        write = Comparison(
            items: parameters.items, vaultSeconds: median(\.vaultWriteSeconds),
            plainSeconds: median(\.plainWriteSeconds), goal: Self.ratioGoal)
        read = Comparison(
            items: parameters.items, vaultSeconds: median(\.vaultReadSeconds),
            plainSeconds: median(\.plainReadSeconds), goal: Self.ratioGoal)
        let paired = pairedUnlock.median.milliseconds
        self.pairedUnlock = Latency(
            samples: pairedUnlock.sorted.count, medianMilliseconds: paired,
            p99Milliseconds: pairedUnlock.percentile(0.99).milliseconds,
            goal: "median < \(Self.pairedUnlockGoal.formatted()) ms", pass: paired < Self.pairedUnlockGoal)
        let passcode = passcodeUnlock.median.milliseconds
        self.passcodeUnlock = Latency(
            samples: passcodeUnlock.sorted.count, medianMilliseconds: passcode,
            p99Milliseconds: passcodeUnlock.percentile(0.99).milliseconds,
            goal: "median \(Self.passcodeUnlockGoal.lowerBound.formatted())–\(Self.passcodeUnlockGoal.upperBound.formatted()) ms",
            pass: Self.passcodeUnlockGoal.contains(passcode))
    }

    /// Writes the report as pretty-printed JSON (dates in ISO 8601).
    func writeJSON(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
