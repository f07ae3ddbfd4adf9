import ArgumentParser

/// `tandem vault unlock`: checks the passcode. The vault is opened per process, so nothing
/// stays unlocked afterwards; a wrong passcode counts against the policy as in the app.
struct VaultUnlock: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Check the passcode.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    func run() throws {
        let home = try vault.openHome(passcode: passcode)
        home.vault.lock()
        print("unlocked")
    }
}
