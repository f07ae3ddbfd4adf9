import Foundation
import TandemTool

/// Starts each of a few processes in turn (the widget binary's `tandem-widget timeline` showing a
/// fresh large-family timeline from a warm snapshot, the full tool's `tandem widget timeline`
/// doing the same, and a bare Swift process that only prints: the floor), each under
/// `/usr/bin/time -f %M`, and records per run the time from starting it to the first byte on its
/// standard output (the first entry) and its peak resident memory.
struct WidgetProcessBenchmark: Sendable {
    /// One process's figures.
    struct Sample: Sendable {
        var firstOutput: Duration
        var peakKilobytes: Int
    }

    /// The processes, measured in turn in every run so that each sees the same machine.
    let commands: [[String]]
    let runs: Int

    /// The samples of each command, in the order of ``commands``.
    func run(progress: @Sendable (String) -> Void) throws -> [[Sample]] {
        var samples = Array(repeating: [Sample](), count: commands.count)
        for run in 0..<runs {
            for (index, command) in commands.enumerated() {
                samples[index].append(try Self.measure(command))
            }
            if (run + 1) % 5 == 0 { progress("widget process \(run + 1)/\(runs)") }
        }
        return samples
    }

    /// Runs `command` under `/usr/bin/time -f %M`.
    static func measure(_ command: [String]) throws -> Sample {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M"] + command
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        _ = output.fileHandleForReading.availableData
        let firstOutput = ContinuousClock.now - start
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let last = errorText.split(separator: "\n").last, let kilobytes = Int(last.trimmingCharacters(in: .whitespaces))
        else {
            throw CommandFailure("\(command.joined(separator: " ")) failed (status \(process.terminationStatus)): \(errorText.suffix(400))")
        }
        return Sample(firstOutput: firstOutput, peakKilobytes: kilobytes)
    }
}
