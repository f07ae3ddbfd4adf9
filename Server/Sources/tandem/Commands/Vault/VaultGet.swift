import ArgumentParser
import Foundation
import TandemTool
import TandemVault

/// `tandem vault get KEY`: prints a value, opening the vault as its owner (passcode).
struct VaultGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print the value stored under a key.",
        discussion: "The value's exact bytes go to standard output, with a newline only on a terminal.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    @Argument(help: "The item's name.")
    var key: String

    func run() throws {
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try Self.write(home.vault.data(forKey: key), key: key)
    }

    /// Writes an item's bytes to standard output, or fails with "no item KEY".
    static func write(_ data: Data?, key: String) throws {
        guard let data else { throw CommandFailure("no item \(key)") }
        FileHandle.standardOutput.write(data)
        if isatty(STDOUT_FILENO) == 1 { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
