import ArgumentParser

/// `tandem simulate …`: plays the phone's rules on a virtual clock against the real server.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Play iOS's rules for the app and its widgets on a virtual clock.",
        subcommands: [SimulateDay.self]
    )
}
