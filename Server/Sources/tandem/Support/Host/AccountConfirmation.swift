import Foundation
import TandemHost

/// How the command-line host answers an SSO sign-in's "Sign in as ‹account›?": yes only for the
/// account named with `--account`; without it, the person at the terminal is asked, and a host
/// with no terminal says no (so a link cannot onboard it into an account nobody saw).
struct AccountConfirmation: ConfirmationPresenter {
    /// The account `--account` names, if given.
    let expected: String?

    func confirm(_ question: String) async -> Bool {
        if let expected { return question == AuthenticationStep.accountQuestion(expected) }
        guard isatty(STDIN_FILENO) == 1 else {
            FileHandle.standardError.write(Data("\(question) No terminal to ask: refused (give --account NAME).\n".utf8))
            return false
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y") == true
    }
}
