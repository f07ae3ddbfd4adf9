import ArgumentParser
import Foundation
import TandemPlatform
import TandemTool
import TandemVault

/// The options every `tandem vault` subcommand takes: where the vault lives and its name.
struct VaultOptions: ParsableArguments {
    @Option(name: .long, help: "The vault home: holds host/ (vault file, host secrets) and shared/secrets/.")
    var dir: String

    @Option(name: .long, help: "The vault's name (letters, digits, '.', '_', '-').")
    var name: String = "vault"

    func validate() throws {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, !name.hasPrefix("."), name.unicodeScalars.allSatisfy(allowed.contains) else {
            throw ValidationError("invalid vault name \(name.debugDescription): use letters, digits, '.', '_' and '-'")
        }
    }

    /// The vault home these options name.
    func home() throws(SecretStorageError) -> VaultHome {
        try VaultHome(root: URL(fileURLWithPath: dir, isDirectory: true), name: name)
    }

    /// Opens the vault as its owner would: with the passcode (from `passcode`), or without
    /// one for a vault created with `--no-passcode`.
    ///
    /// - Returns: The home, with its vault unlocked.
    func openHome(passcode: PasscodeOptions) throws -> VaultHome {
        let home = try home()
        try home.unlockAsOwner(passcode: passcode)
        return home
    }
}
