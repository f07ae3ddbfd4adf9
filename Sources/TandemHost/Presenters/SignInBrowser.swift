import Foundation

/// Shows the server's sign-in page and returns where it sent the browser back to: an
/// `ASWebAuthenticationSession` in an app, a headless form post in the command-line host and in
/// tests.
public protocol SignInBrowser: Sendable {
    /// Opens `authorizationURL` and waits for the redirect to the app's `callbackScheme`.
    ///
    /// - Returns: The redirect URL, with `code` and `state` (or `error`) in its query.
    /// - Throws: `CancellationError` when the user closes the browser.
    func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL
}
