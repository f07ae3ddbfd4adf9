import Synchronization
import TandemHost
import TandemVault

/// The command-line host's `PasscodePrompt`: the passcode from `--passcode`, `--passcode-file`,
/// `TANDEM_PASSCODE` or one line of standard input (with echo off at a terminal), read when a
/// flow first asks and then kept for the rest of the run.
final class OptionsPasscodePrompt: PasscodePrompt {
    private let options: PasscodeOptions
    private let resolved = Mutex<String?>(nil)

    /// A prompt that reads from `options`.
    init(_ options: PasscodeOptions) {
        self.options = options
    }

    func passcode(for purpose: PasscodePurpose, policy: PasscodePolicy) async throws -> String {
        if let passcode = resolved.withLock({ $0 }) { return passcode }
        let passcode = try options.resolve()
        resolved.withLock { $0 = passcode }
        return passcode
    }
}
