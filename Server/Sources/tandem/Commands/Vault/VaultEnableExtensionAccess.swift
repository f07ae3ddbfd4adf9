import ArgumentParser

/// `tandem vault enable-extension-access`: creates the paired access key, putting the
/// auxiliary share into `shared/secrets` and the primary share into `host/secrets`.
struct VaultEnableExtensionAccess: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable-extension-access", abstract: "Let extensions open the vault with the paired key.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    func run() throws {
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try home.vault.enableExtensionAccess(shared: home.sharedSecrets)
        print("extension access enabled; auxiliary share in \(home.sharedSecrets.directory.path)")
    }
}
