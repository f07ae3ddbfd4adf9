import ArgumentParser

/// Where the current passcode comes from: `--passcode` (with a warning: a command-line option
/// is visible to other users of the machine in the process list), else `--passcode-file`, else
/// `TANDEM_PASSCODE`, else one line of standard input.
struct PasscodeOptions: ParsableArguments {
    @Option(name: .long, help: "The passcode; visible in ps, prefer --passcode-file or $TANDEM_PASSCODE (else one line of standard input).")
    var passcode: String?

    @Option(name: .long, help: "A file whose first line is the passcode.")
    var passcodeFile: String?

    /// The passcode, read from the first source that has one.
    func resolve() throws -> String {
        try PasscodeInput.read(
            option: passcode, optionName: "--passcode", file: passcodeFile, environmentVariable: "TANDEM_PASSCODE", prompt: "Passcode: ")
    }
}
