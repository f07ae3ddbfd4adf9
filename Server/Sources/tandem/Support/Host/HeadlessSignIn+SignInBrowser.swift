import Foundation
import TandemHost

extension HeadlessSignIn: SignInBrowser {
    /// Fills in the server's sign-in form and returns its redirect (the app's callback scheme is
    /// not opened: the command-line host has no browser to hand it to).
    func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL {
        try await redirect(for: authorizationURL)
    }
}
