import ArgumentParser

/// Where the current passcode comes from: `--passcode`, else `TANDEM_PASSCODE`, else one line
/// of standard input. Prefer the last two: a command-line option is visible to other users
/// of the machine in the process list.
struct PasscodeOptions: ParsableArguments {
    @Option(name: .long, help: "The passcode (else $TANDEM_PASSCODE, else one line of standard input).")
    var passcode: String?

    /// The passcode, read from the first source that has one.
    func resolve() throws -> String {
        try PasscodeInput.read(option: passcode, environmentVariable: "TANDEM_PASSCODE", prompt: "Passcode: ")
    }
}
