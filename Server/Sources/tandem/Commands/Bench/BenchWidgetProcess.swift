import ArgumentParser
import Foundation

/// `tandem bench widget-process`: what a widget extension costs as a process. iOS stops a widget
/// extension at about 30 MB, and a widget must show its first entry quickly: this runs `tandem
/// widget timeline` for a fresh large-family timeline from a warm snapshot, and a bare Swift
/// process that only prints as the floor, and reports peak resident memory and the time from
/// process start to the first entry. `--dir` must hold an onboarded host whose snapshot for the
/// page is fresh (`tandem widget timeline` then `tandem host fulfil`).
struct BenchWidgetProcess: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-process", abstract: "Peak memory and time to first entry of a widget timeline process, against a bare Swift process.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var page: EntitySetOptions

    @Option(name: .long, help: "A bare Swift executable that only prints (the floor).")
    var floor: String

    @Option(name: .long, help: "Runs of each process.")
    var runs = 15

    /// iOS's limit for a widget extension, about 30 MB.
    static let memoryGoalMegabytes = 30.0
    /// The longest acceptable median from process start to the first entry.
    static let firstEntryGoal = Duration.milliseconds(50)

    func run() async throws {
        let executable = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        let widget = [
            executable, "widget", "timeline", "--dir", home.dir, "--family", "systemLarge", "--destination", page.destination,
            "--entity-set", page.entitySet, "--limit", String(page.limit),
        ]
        let progress: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        let result = try WidgetProcessBenchmark(widgetCommand: widget, floorCommand: [floor], runs: runs).run(progress: progress)
        print(Self.table(result))
    }

    static func table(_ result: WidgetProcessBenchmark.Result) -> String {
        func megabytes(_ samples: [WidgetProcessBenchmark.Sample]) -> Double {
            Double(samples.map(\.peakKilobytes).max() ?? 0) / 1024
        }
        func median(_ samples: [WidgetProcessBenchmark.Sample]) -> Duration { SampleStatistics(samples.map(\.firstOutput)).median }
        let memory = megabytes(result.widget)
        let first = median(result.widget)
        let memoryResult = memory < memoryGoalMegabytes ? "PASS" : "FAIL"
        let firstResult = first < firstEntryGoal ? "PASS" : "FAIL"
        return """
            widget process (×\(result.widget.count))   widget      bare Swift       goal        result
            peak resident memory         \(String(format: "%7.1f MB", memory))  \(String(format: "%7.1f MB", megabytes(result.floor)))   < 30 MB      \(memoryResult)
            start to first entry         \(String(format: "%7.1f ms", first.milliseconds))  \(String(format: "%7.1f ms", median(result.floor).milliseconds))   < 50 ms      \(firstResult)
            """
    }
}
