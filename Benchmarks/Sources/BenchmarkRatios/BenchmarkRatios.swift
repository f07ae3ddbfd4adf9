import BenchmarkData
import Foundation

/// Prints the vault against plain GRDB and SQLCipher as ratios of their median times, then
/// every benchmark's median and p99 time and allocations per operation.
///
///     swift run -c release BenchmarkRatios RUN.jmh.json [MORE-RUNS.jmh.json ...]
///
/// Each file is what one `swift package benchmark --format jmh` run wrote. Within a run the vault
/// and its baseline are measured one right after the other, so a ratio is taken within each run
/// and the median of the runs' ratios is judged against the goal: the machine's speed drifts
/// between runs (these are shared machines), and a ratio of benchmarks measured minutes apart
/// would measure the drift. The tables show the first run's figures. With `BENCH_STRICT=1` a
/// missed goal makes the exit status 3.
@main
struct BenchmarkRatios {
    /// The operations compared, and the vault's goal over plain GRDB (vault time / GRDB time):
    /// a single write and a single read, the figures the goal was set on. Writes batched ten to a
    /// transaction are reported without one: each item still pays its seal and its item-set
    /// MAC, while GRDB's per-item cost falls to one upsert (see `batchNote`).
    static let comparisons: [(operation: String, goal: Double?)] = [("set", 1.30), ("get", 1.25), ("set ×10", nil)]

    /// Why the batched write has no goal, printed under the table.
    static let batchNote = """
        set ×10 is reported without a goal (the goal is for a single write): a batch still pays one AES-GCM \
        seal and one HMAC per item through swift-crypto, where GRDB's cost per item falls to about one upsert.
        """

    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: BenchmarkRatios RUN.jmh.json [MORE-RUNS.jmh.json ...]\n".utf8))
            exit(2)
        }
        let runs = try paths.map { try JMHResults(contentsOf: URL(fileURLWithPath: $0)) }
        let first = runs[0]
        var missed = 0
        print("Vault vs plain GRDB vs SQLCipher, same rows (median µs per operation; ratio = vault time / other time;")
        print("vault/GRDB is the median of \(runs.count) run\(runs.count == 1 ? "" : "s")' ratios, each taken within its run)")
        print(row(["operation", "vault", "GRDB", "SQLCipher", "vault/GRDB", "goal", "runs", "vault/SQLCipher"], widths: [10, 9, 9, 10, 11, 13, 22, 0]))
        for (operation, goal) in comparisons {
            let ratios = runs.compactMap { run in
                run["Vault \(operation)"].flatMap { vault in run["GRDB \(operation)"].map { vault.median / $0.median } }
            }
            guard let vault = first["Vault \(operation)"], let plain = first["GRDB \(operation)"], let ratio = median(ratios) else {
                print("\(operation): not measured")
                missed += 1
                continue
            }
            let cipher = runs.lazy.compactMap { $0["SQLCipher \(operation)"] }.first
            if let goal, ratio > goal { missed += 1 }
            print(row([
                operation, format(vault.median), format(plain.median), cipher.map { format($0.median) } ?? "-",
                String(format: "%.2fx", ratio), goal.map { (ratio <= $0 ? "PASS ≤ " : "FAIL > ") + String(format: "%.2fx", $0) } ?? "reported",
                ratios.map { String(format: "%.2f", $0) }.joined(separator: " "),
                cipher.map { String(format: "%.2fx", vault.median / $0.median) } ?? "-",
            ], widths: [10, 9, 9, 10, 11, 13, 22, 0]))
        }
        print(batchNote)
        print()
        print(row(["benchmark", "median µs", "p99 µs", "mallocs"], widths: [36, 11, 11, 0]))
        for (name, result) in first.all {
            print(row([name, format(result.median), format(result.p99), result.mallocs.map { String(format: "%.1f", $0) } ?? "-"],
                      widths: [36, 11, 11, 0]))
        }
        if missed > 0, ProcessInfo.processInfo.environment["BENCH_STRICT"] == "1" { exit(3) }
    }

    /// The median of `values` (the mean of the middle two for an even count); `nil` for none.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private static func format(_ microseconds: Double) -> String {
        String(format: microseconds < 100 ? "%.2f" : "%.0f", microseconds)
    }

    private static func row(_ columns: [String], widths: [Int]) -> String {
        zip(columns, widths).map { column, width in
            column.count >= width ? column : column + String(repeating: " ", count: width - column.count)
        }.joined(separator: " ")
    }
}

/// The part of ordo-one's JMH export this reads: per benchmark, the median and p99 wall-clock
/// time and the median allocation count, per operation. The store benchmarks (`Vault set`,
/// `GRDB get`, …) run ``BenchmarkDataSet/operationsPerSample`` operations per sample; the
/// others one.
struct JMHResults {
    struct Result {
        var median: Double
        var p99: Double
        var mallocs: Double?
    }

    /// Every benchmark, by name, in the order of the file.
    let all: [(name: String, result: Result)]

    init(contentsOf url: URL) throws {
        let elements = try JSONDecoder().decode([Element].self, from: Data(contentsOf: url))
        all = elements.compactMap { element in
            guard let time = element.secondaryMetrics?["Time (wall clock)"]?.scorePercentiles,
                let median = time["50.0"], let p99 = time["99.0"]
            else { return nil }
            // "package.benchmark.<target>.<name with underscores>"
            let name = element.benchmark.split(separator: ".").dropFirst(3).joined(separator: ".")
                .replacingOccurrences(of: "_", with: " ")
            let perSample = Self.isStoreBenchmark(name) ? Double(BenchmarkDataSet.operationsPerSample) : 1
            let mallocs = element.secondaryMetrics?["Malloc (total)"]?.scorePercentiles["50.0"]
            return (name, Result(median: median / perSample, p99: p99 / perSample, mallocs: mallocs.map { $0 / perSample }))
        }
    }

    subscript(name: String) -> Result? { all.first { $0.name == name }?.result }

    /// Whether `name` is one of the store benchmarks: `Vault`, `GRDB` or `SQLCipher`, then
    /// `set` or `get`.
    static func isStoreBenchmark(_ name: String) -> Bool {
        let words = name.split(separator: " ")
        return words.count >= 2 && ["Vault", "GRDB", "SQLCipher"].contains(words[0]) && ["set", "get"].contains(words[1])
    }

    private struct Element: Decodable {
        var benchmark: String
        var secondaryMetrics: [String: Metric]?
    }

    private struct Metric: Decodable {
        var scorePercentiles: [String: Double]
    }
}
