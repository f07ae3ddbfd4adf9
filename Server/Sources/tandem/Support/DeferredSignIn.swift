import Foundation
import TandemFlows

/// A ``SignInBrowser`` for `tandem host unlock --username`: the password is read (from
/// `--password-file`, `TANDEM_PASSWORD` or standard input) only if the restore finds the session
/// ended and needs it, then the server's form is filled in headlessly.
struct DeferredSignIn: SignInBrowser {
    let username: String
    let passwordFile: String?

    func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL {
        let password = try PasscodeInput.read(
            option: nil, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_PASSWORD", prompt: "Password: ")
        return try await HeadlessSignIn(username: username, password: password).signIn(at: authorizationURL, callbackScheme: callbackScheme)
    }
}
