import ArgumentParser

/// `tandem vault disable-extension-access`: removes the paired key and both its shares.
struct VaultDisableExtensionAccess: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable-extension-access", abstract: "Remove the paired key and both shares.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    func run() throws {
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try home.vault.disableExtensionAccess(shared: home.sharedSecrets)
        print("extension access disabled")
    }
}
