import ArgumentParser
import TandemVault

/// `tandem vault create`: creates a vault protected by a passcode, or by the device secret
/// alone with `--no-passcode`.
struct VaultCreate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a vault.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var passcode: PasscodeOptions
    @OptionGroup var keyDerivation: KeyDerivationOptions

    @Flag(name: .long, help: "Protect the vault by the device secret alone; it opens without a passcode.")
    var noPasscode = false

    @Option(name: .long, help: "The fewest characters a passcode may have (default 6).")
    var minLength: Int?

    @Option(name: .long, help: "Consecutive wrong passcodes before the limit action (default 10).")
    var maxAttempts: Int?

    @Flag(name: .long, help: "Wipe the vault at the attempt limit instead of locking it for an hour.")
    var wipeAtLimit = false

    func validate() throws {
        if noPasscode && (minLength != nil || maxAttempts != nil || wipeAtLimit || passcode.passcode != nil) {
            throw ValidationError("--no-passcode cannot be combined with passcode options")
        }
        if let minLength, minLength < 1 { throw ValidationError("--min-length must be at least 1") }
        if let maxAttempts, maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1") }
    }

    func run() throws {
        let home = try vault.home()
        if noPasscode {
            try home.vault.createWithoutPasscode()
            print("created vault \(home.vault.name) without passcode in \(home.hostDirectory.path)")
            return
        }
        var policy = PasscodePolicy.default
        if let minLength { policy.minimumLength = minLength }
        if let maxAttempts { policy.maximumAttempts = maxAttempts }
        if wipeAtLimit { policy.onLimit = .wipe }
        try home.vault.create(passcode: try passcode.resolve(), policy: policy, cost: keyDerivation.cost)
        print("created vault \(home.vault.name) with passcode in \(home.hostDirectory.path)")
    }
}
