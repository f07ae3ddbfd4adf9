import ArgumentParser

/// `tandem bench …`: benchmarks run on this machine, printed as tables.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Tandem on this machine.",
        discussion: "Build with -c release for meaningful figures: swift run -c release tandem bench vault",
        subcommands: [BenchVault.self, BenchExtension.self, BenchWidgetProcess.self]
    )
}
