import ArgumentParser

/// `tandem vault rotate-paired-key`: replaces the paired access key; the extensions' old
/// share stops working and a new one is put into `shared/secrets`.
struct VaultRotatePairedKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-paired-key", abstract: "Replace the paired key; the old auxiliary share stops working.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions

    func run() throws {
        let home = try vault.openHome(passcode: passcode)
        defer { home.vault.lock() }
        try home.vault.rotatePairedKey(shared: home.sharedSecrets)
        print("paired key rotated")
    }
}
