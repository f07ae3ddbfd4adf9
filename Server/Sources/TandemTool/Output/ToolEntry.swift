import ArgumentParser
import Logging

/// Runs a command-line tool's root command the way every Tandem binary does: every library's
/// logs (the SDK's included) go to standard error at the level `TANDEM_LOG_LEVEL` names, standard
/// output keeps the commands' results, and an error ends the process with `Error: …` and exit
/// status 1.
public enum ToolEntry {
    /// Bootstraps logging, parses the arguments for `root` and runs the command they name.
    public static func run<Root: ParsableCommand>(_ root: Root.Type) async {
        LoggingSystem.bootstrap { label in
            var handler = EscapingLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = ToolLogger.level
            return handler
        }
        do {
            var command = try root.parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            root.exit(withError: error)
        }
    }
}
