import ArgumentParser
import Foundation

/// The option every `tandem host` and `tandem widget` subcommand takes: the directory that holds
/// the host's, the widget's and the shared folders (see ``ExtensionHome``).
struct ExtensionOptions: ParsableArguments {
    @Option(name: .long, help: "The app home: holds host/, widget/ and shared/ (created if needed).")
    var dir: String

    /// The layout under `--dir`.
    func home() throws -> ExtensionHome {
        try ExtensionHome(root: URL(fileURLWithPath: dir, isDirectory: true))
    }
}
