import ArgumentParser

/// `tandem demo …`: narrated walkthroughs that use the SDK in-process and check every claim
/// they print.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Narrated walkthroughs of Tandem's features.",
        subcommands: [DemoVault.self]
    )
}
