import ArgumentParser
import TandemTool

/// `tandem host race`: the host taking part in the refresh race on the widgets' grant, as it does
/// when it refreshes that grant in the foreground while widgets refresh it too.
struct HostRace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "race", abstract: "Refresh the widgets' grant in timed rounds, racing other processes (for tests and benchmarks).")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var race: RaceOptions

    func run() async throws {
        try await RefreshRace.run(race, home: try home.home(), role: "host")
    }
}
