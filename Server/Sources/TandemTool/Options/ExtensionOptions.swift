import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The option every `tandem host` and `tandem widget` subcommand takes: the directory that holds
/// the host's, the widget's and the shared folders (see ``ExtensionHome``).
public struct ExtensionOptions: ParsableArguments {
    @Option(name: .long, help: "The app home: holds host/, widget/ and shared/ (created if needed).")
    public var dir: String

    public init() {}

    /// The layout under `--dir`.
    public func home() throws -> ExtensionHome {
        try ExtensionHome(root: URL(fileURLWithPath: dir, isDirectory: true))
    }
}
