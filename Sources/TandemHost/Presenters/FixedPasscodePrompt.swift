import TandemVault

/// A ``PasscodePrompt`` that always answers with the same passcode: for tests, and for a
/// command-line host given the passcode in a file or the environment.
public struct FixedPasscodePrompt: PasscodePrompt {
    private let passcode: String

    /// A prompt that answers `passcode`.
    public init(_ passcode: String) {
        self.passcode = passcode
    }

    public func passcode(for purpose: PasscodePurpose, policy: PasscodePolicy) async throws -> String {
        passcode
    }
}
