import Foundation
import TandemHost
import TandemTool

/// A `SignInBrowser` for `tandem host onboard` and `tandem host unlock --username`: the
/// password is read (from `--password`, `--password-file`, `TANDEM_PASSWORD` or standard input)
/// only when the flow signs the user in, then the server's form is filled in headlessly. An
/// API-key app never asks, so it needs no username.
struct DeferredSignIn: SignInBrowser {
    let username: String?
    var password: String? = nil
    let passwordFile: String?

    func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL {
        guard let username else { throw CommandFailure("this app signs a user in: give --username") }
        let password = try PasscodeInput.read(
            option: password, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_PASSWORD", prompt: "Password: ")
        return try await HeadlessSignIn(username: username, password: password).signIn(at: authorizationURL, callbackScheme: callbackScheme)
    }
}
