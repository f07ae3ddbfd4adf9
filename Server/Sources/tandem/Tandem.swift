import ArgumentParser
import Logging
import TandemServer

/// The `tandem` command-line tool: the server and its administration, vault administration, a
/// host app and its widget played as separate processes, the benchmark and the demos.
///
/// Errors end the process with a one-line `Error: …` message on standard error and exit
/// status 1: a ``VaultError`` is shown by its description (for example
/// `Error: wrong passcode (4 attempts remaining)`), a ``CommandFailure`` by its message.
@main
struct Tandem: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Tandem: the vault, the mobile services server and their tools.",
        version: TandemServerInfo.version,
        subcommands: [
            ServeCommand.self, AdminCommand.self, VaultCommand.self, HostCommand.self, WidgetCommand.self, BenchCommand.self,
            DemoCommand.self,
        ]
    )

    /// Sends every library's logs (the SDK's included) to standard error at the level
    /// `TANDEM_LOG_LEVEL` names, keeping standard output for the commands' results, then runs
    /// the command.
    static func main() async {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ToolLogger.level
            return handler
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
