import ArgumentParser
import Foundation
import TandemTool

/// `tandem vault put KEY [VALUE]`: stores a value under a key: a file's bytes (`--value-file`),
/// else standard input, else VALUE, which works but warns, since `ps` shows it to every local
/// account.
struct VaultPut: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "put", abstract: "Store a value under a key.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    @Argument(help: "The item's name.")
    var key: String

    @Argument(help: "The value, stored as its UTF-8 bytes; visible in ps, prefer --value-file or standard input.")
    var value: String?

    @Option(name: [.customLong("value-file"), .customLong("file")], help: "Store this file's bytes (without VALUE: standard input's).")
    var file: String?

    func validate() throws {
        guard value == nil || file == nil else { throw ValidationError("give either VALUE or --value-file") }
    }

    func run() throws {
        let data: Data
        if let value {
            SecretInput.warnVisible("a vault VALUE", alternative: "--value-file or standard input")
            data = Data(value.utf8)
        } else if let file {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
            }
        } else {
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try home.vault.set(data, forKey: key)
        print("stored \(key) (\(data.count) bytes)")
    }
}
