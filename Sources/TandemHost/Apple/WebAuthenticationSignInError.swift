#if canImport(AuthenticationServices) && canImport(UIKit) && os(iOS)
import Foundation

/// Why ``WebAuthenticationSignIn`` could not show the sign-in page or bring its answer back.
/// Closing the page is not an error of this kind: it throws `CancellationError`.
public enum WebAuthenticationSignInError: Error, Sendable, Equatable {
    /// No foreground scene has a key window to show the page over (the app is in the background,
    /// or the window went away while the page opened). Try again once the app is active.
    case noWindow
    /// The system refused to start the session: another sign-in page is already showing, or
    /// the app left the foreground. Try again from the foreground.
    case couldNotStart
    /// The page failed for a reason the system gave, with its description; show it and let the
    /// user try again.
    case failed(String)
}
#endif
