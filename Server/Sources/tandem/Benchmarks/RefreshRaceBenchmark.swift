import Foundation
import TandemTool

/// Times the cross-process single flight: `processes` separate `tandem widget race` processes
/// ask for a fresh grant token at the same wall-clock moment, round after round, and a round
/// lasts until the last of them holds the new token. The baseline is one process refreshing
/// alone, the same way, in the same run.
///
/// The two are measured in alternating blocks (alone, together, alone, together, …), so that a
/// machine that gets busier or quieter during the run moves both figures alike instead of
/// skewing their ratio.
struct RefreshRaceBenchmark {
    /// The timings of one run: per round, scheduled start until the last process had its token.
    struct Result {
        let alone: SampleStatistics
        let together: SampleStatistics
    }

    let dir: String
    /// Rounds per configuration, over all blocks.
    let rounds: Int
    let processes: Int
    /// How many blocks of each configuration the rounds are spread over.
    var blocks = 6

    func run(progress: @Sendable (String) -> Void) async throws -> Result {
        var alone: [Duration] = []
        var together: [Duration] = []
        let perBlock = max(1, (rounds + blocks - 1) / blocks)
        for block in 1...blocks {
            progress("refresh, block \(block) of \(blocks): 1 process alone, \(perBlock) rounds")
            alone += try await race(processes: 1, rounds: perBlock)
            progress("refresh, block \(block) of \(blocks): \(processes) processes at once, \(perBlock) rounds")
            together += try await race(processes: processes, rounds: perBlock)
        }
        return Result(alone: SampleStatistics(alone), together: SampleStatistics(together))
    }

    /// Runs one race and returns, per round, the time until its last process finished.
    private func race(processes count: Int, rounds: Int) async throws -> [Duration] {
        let periodMilliseconds = 150
        let startAt = Int64((Date().timeIntervalSince1970 + 1.5) * 1000)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var children: [(Process, URL)] = []
        for index in 0..<count {
            let output = scratch.appendingPathComponent("race-\(index).out")
            try Data().write(to: output)
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "widget", "race", "--dir", dir, "--rounds", String(rounds), "--start-at-ms", String(startAt),
                "--period-ms", String(periodMilliseconds),
            ]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.standardError
            try process.run()
            children.append((process, output))
        }
        while children.contains(where: { $0.0.isRunning }) { try await Task.sleep(for: .milliseconds(50)) }

        var slowest = Array(repeating: 0.0, count: rounds)
        for (process, output) in children {
            guard process.terminationStatus == 0 else { throw CommandFailure("a race process exited with status \(process.terminationStatus)") }
            let text = try String(contentsOf: output, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let round = object["round"] as? Int, let finished = object["finished_ms"] as? Double
                else { continue }
                guard object["result"] as? String == "ok" else { throw CommandFailure("race round \(round) failed: \(object["error"] ?? "?")") }
                slowest[round] = max(slowest[round], finished)
            }
        }
        // The first rounds pay for connection set-up and lazy initialisation: leave them out.
        return slowest.dropFirst(3).map { .microseconds(Int64($0 * 1000)) }
    }
}
