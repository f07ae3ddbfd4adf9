import ArgumentParser

/// `tandem vault change-passcode`: replaces the passcode. Only the passcode's key slot is
/// rewrapped; items and the extensions' share are untouched.
struct VaultChangePasscode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-passcode", abstract: "Replace the passcode.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions
    @OptionGroup var keyDerivation: KeyDerivationOptions

    @Option(name: .long, help: "The new passcode; visible in ps, prefer --new-passcode-file or $TANDEM_NEW_PASSCODE (else the next line of standard input).")
    var newPasscode: String?

    @Option(name: .long, help: "A file whose first line is the new passcode.")
    var newPasscodeFile: String?

    func run() throws {
        let home = try vault.home()
        let old = try passcode.resolve()
        let new = try PasscodeInput.read(
            option: newPasscode, optionName: "--new-passcode", file: newPasscodeFile, environmentVariable: "TANDEM_NEW_PASSCODE",
            prompt: "New passcode: ")
        try home.vault.changePasscode(old: old, new: new, cost: keyDerivation.cost)
        home.vault.lock()
        print("passcode changed")
    }
}
