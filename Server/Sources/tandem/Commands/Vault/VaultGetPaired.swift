import ArgumentParser

/// `tandem vault get-paired KEY`: reads an item as an extension request would, with no
/// passcode: the auxiliary share from the shared storage, combined with the host's primary
/// share, opens the vault.
struct VaultGetPaired: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get-paired", abstract: "Print a value, opening the vault with the paired key's shares only.")

    @OptionGroup var vault: VaultOptions

    @Argument(help: "The item's name.")
    var key: String

    func run() throws {
        let home = try vault.home()
        try home.vault.unlock(pairedKey: home.auxiliaryShare())
        defer { home.vault.lock() }
        try VaultGet.write(home.vault.data(forKey: key), key: key)
    }
}
