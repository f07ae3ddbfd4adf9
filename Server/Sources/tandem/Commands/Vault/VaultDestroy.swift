import ArgumentParser
import TandemTool

/// `tandem vault destroy --yes`: deletes the vault file and the host's secrets for it.
/// Needs no passcode, like deleting the app's data: its data is gone for good.
struct VaultDestroy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destroy", abstract: "Delete the vault and its host secrets for good.")

    @OptionGroup var vault: VaultOptions

    @Flag(name: .long, help: "Confirm: the vault's data cannot be recovered.")
    var yes = false

    func validate() throws {
        guard yes else { throw ValidationError("destroying a vault cannot be undone: add --yes to confirm") }
    }

    func run() throws {
        let home = try vault.home()
        guard try home.vault.status().exists else { throw CommandFailure("no vault \(home.vault.name) in \(home.hostDirectory.path)") }
        try home.vault.destroy()
        print("destroyed vault \(home.vault.name)")
    }
}
