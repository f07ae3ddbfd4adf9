import ArgumentParser
import Foundation
import TandemTool

/// `tandem bench extension`: the extension paths against a running server, with their floors
/// measured in the same run:
///
/// - the brokered round trip (widget request → host fulfil → widget read), in one process so
///   that process start-up is not measured, against a plain loopback GET of the same resource;
/// - the refresh single flight: the time until every one of 8 processes holds a fresh token,
///   against one process refreshing alone.
///
/// `--dir` must hold an onboarded host (`tandem host onboard`) of the server under test.
struct BenchExtension: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extension",
        abstract: "Benchmark the brokered round trip and the cross-process refresh against a running server.",
        discussion: "Progress goes to standard error, the table to standard output.")

    @OptionGroup var home: ExtensionOptions

    @Option(name: .long, help: "Brokered round trips (and as many plain GETs) to time.")
    var rounds = 300

    @Option(name: .long, help: "Refresh rounds per configuration (1 process, and 8), in 6 alternating blocks.")
    var refreshRounds = 150

    @Option(name: .long, help: "Processes in the refresh race.")
    var processes = 8

    func validate() throws {
        guard rounds >= 200 else { throw ValidationError("--rounds must be at least 200 for a meaningful p99") }
        guard refreshRounds >= 10, processes >= 2 else { throw ValidationError("--refresh-rounds ≥ 10 and --processes ≥ 2") }
    }

    func run() async throws {
        let home = try home.hostHome()
        let progress: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        let brokered = try await BrokeredRoundTripBenchmark(home: home, rounds: rounds).run(progress: progress)
        let refresh = try await RefreshRaceBenchmark(dir: home.vaultHome.root.path, rounds: refreshRounds, processes: processes).run(progress: progress)
        print(ExtensionBenchmarkTable(brokered: brokered, refresh: refresh, processes: processes).text)
    }
}
