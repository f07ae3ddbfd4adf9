import ArgumentParser
import Foundation
import TandemTool

/// `tandem bench widget-process`: what a widget extension costs as a process. iOS stops a widget
/// extension at about 30 MB, and a widget must show its first entry quickly. This runs
/// `tandem-widget timeline` (the widget as its own binary, linked as an extension target is) for
/// a fresh large-family timeline from a warm snapshot, `tandem widget timeline` (the same command
/// inside the full tool, for reference: it carries the server and libcurl), and a bare Swift
/// process that only prints (the floor), and reports each one's peak resident memory and the
/// time from process start to the first entry. `--dir` must hold an onboarded host whose
/// snapshot for the page is fresh (`tandem widget timeline` then `tandem host fulfil`).
struct BenchWidgetProcess: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-process", abstract: "Peak memory and time to first entry of a widget timeline process, against a bare Swift process.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var page: EntitySetOptions

    @Option(name: .long, help: "The tandem-widget executable (the widget binary the goals apply to).")
    var widget: String

    @Option(name: .long, help: "A bare Swift executable that only prints (the floor), built as tandem-widget is.")
    var floor: String

    @Option(name: .long, help: "Runs of each process.")
    var runs = 15

    /// iOS's limit for a widget extension, about 30 MB.
    static let memoryGoalMegabytes = 30.0
    /// The longest acceptable median from process start to the first entry.
    static let firstEntryGoal = Duration.milliseconds(50)

    func run() async throws {
        let tool = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        let timeline = [
            "timeline", "--dir", home.dir, "--family", "systemLarge", "--destination", page.destination,
            "--entity-set", page.entitySet, "--limit", String(page.limit),
        ]
        let progress: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        let samples = try WidgetProcessBenchmark(commands: [[widget] + timeline, [tool, "widget"] + timeline, [floor]], runs: runs)
            .run(progress: progress)
        print(Self.table(widget: samples[0], tool: samples[1], floor: samples[2]))
    }

    static func table(
        widget: [WidgetProcessBenchmark.Sample], tool: [WidgetProcessBenchmark.Sample], floor: [WidgetProcessBenchmark.Sample]
    ) -> String {
        func megabytes(_ samples: [WidgetProcessBenchmark.Sample]) -> String {
            String(format: "%7.1f MB", Double(samples.map(\.peakKilobytes).max() ?? 0) / 1024)
        }
        func median(_ samples: [WidgetProcessBenchmark.Sample]) -> Duration { SampleStatistics(samples.map(\.firstOutput)).median }
        func milliseconds(_ samples: [WidgetProcessBenchmark.Sample]) -> String {
            String(format: "%7.1f ms", median(samples).milliseconds)
        }
        let memory = Double(widget.map(\.peakKilobytes).max() ?? 0) / 1024
        let memoryResult = memory < memoryGoalMegabytes ? "PASS" : "FAIL"
        let firstResult = median(widget) < firstEntryGoal ? "PASS" : "FAIL"
        return """
            widget process (×\(widget.count))   tandem-widget  tandem widget  bare Swift    goal      result
            peak resident memory         \(megabytes(widget))     \(megabytes(tool))     \(megabytes(floor))    < 30 MB    \(memoryResult)
            start to first entry         \(milliseconds(widget))     \(milliseconds(tool))     \(milliseconds(floor))    < 50 ms    \(firstResult)
              goals apply to tandem-widget, the widget's own binary; tandem widget (the full tool) is shown for reference
            """
    }
}
