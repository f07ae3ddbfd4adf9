import Foundation

/// Starts a widget process (`tandem widget timeline` showing a fresh large-family timeline from a
/// warm snapshot) and a bare Swift process that only prints (the floor), alternately, each under
/// `/usr/bin/time -f %M`, and records per run the time from starting it to the first byte on
/// its standard output (the first entry) and its peak resident memory.
struct WidgetProcessBenchmark: Sendable {
    /// One process's figures.
    struct Sample: Sendable {
        var firstOutput: Duration
        var peakKilobytes: Int
    }

    /// The figures of the widget process and of the floor.
    struct Result: Sendable {
        var widget: [Sample]
        var floor: [Sample]
    }

    let widgetCommand: [String]
    let floorCommand: [String]
    let runs: Int

    func run(progress: @Sendable (String) -> Void) throws -> Result {
        var result = Result(widget: [], floor: [])
        for run in 0..<runs {
            result.widget.append(try Self.measure(widgetCommand))
            result.floor.append(try Self.measure(floorCommand))
            if (run + 1) % 5 == 0 { progress("widget process \(run + 1)/\(runs)") }
        }
        return result
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
