import ArgumentParser

/// `tandem generate …`: writes the Xcode side of an app on Tandem, wired to its server.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a host app and widget extension (app), or a widget for an app already in the store (widget).",
        subcommands: [GenerateApp.self, GenerateWidget.self]
    )
}
