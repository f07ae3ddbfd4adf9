import ArgumentParser
import Foundation

/// `tandem vault put KEY VALUE`: stores a value (or a file's bytes) under a key.
struct VaultPut: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "put", abstract: "Store a value under a key.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    @Argument(help: "The item's name.")
    var key: String

    @Argument(help: "The value, stored as its UTF-8 bytes.")
    var value: String?

    @Option(name: .long, help: "Store this file's bytes instead of VALUE.")
    var file: String?

    func validate() throws {
        guard (value == nil) != (file == nil) else { throw ValidationError("give either VALUE or --file") }
    }

    func run() throws {
        let data: Data
        if let file {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
            }
        } else {
            data = Data((value ?? "").utf8)
        }
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try home.vault.set(data, forKey: key)
        print("stored \(key) (\(data.count) bytes)")
    }
}
