import ArgumentParser
import TandemServer
import TandemTool

/// The `tandem` command-line tool: the server and its administration, vault administration, a
/// host app and its widget played as separate processes, and the demos.
///
/// Errors end the process with a one-line `Error: …` message on standard error and exit
/// status 1: a `VaultError` is shown by its description (for example
/// `Error: wrong passcode (4 attempts remaining)`), a `CommandFailure` by its message.
@main
struct Tandem: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Tandem: the vault, the mobile services server and their tools.",
        version: TandemServerInfo.version,
        subcommands: [
            ServeCommand.self, AdminCommand.self, VaultCommand.self, HostCommand.self, WidgetCommand.self,
            GenerateCommand.self, SimulateCommand.self, APNsStandInCommand.self,
        ]
    )

    /// Runs the command the arguments name (see `ToolEntry`).
    static func main() async {
        await ToolEntry.run(Tandem.self)
    }
}
