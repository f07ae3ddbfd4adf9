import ArgumentParser
import TandemTool

/// `tandem widget race`: a widget taking part in the refresh race on its grant; several widget
/// processes (and the host) run it at once.
struct WidgetRace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "race", abstract: "Refresh the widgets' grant in timed rounds, racing other processes (for tests and benchmarks).")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var race: RaceOptions

    func run() async throws {
        try await RefreshRace.run(race, home: try home.home(), role: "widget")
    }
}
