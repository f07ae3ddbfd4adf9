#if canImport(AuthenticationServices) && canImport(UIKit) && os(iOS)
import AuthenticationServices
import Foundation
import UIKit

/// `ASWebAuthenticationSession` behind ``SignInBrowser``: shows the server's sign-in page in the
/// system's browser sheet over the foreground window and returns the redirect to the app's
/// callback scheme.
///
/// The session catches the redirect to `callbackScheme` itself, so it needs no Info.plist entry
/// and no entitlement; register the scheme in `CFBundleURLTypes` only if the app also opens SSO
/// deep links. App extensions cannot show the sheet, so the type is unavailable there: sign in
/// from the app.
///
/// ```swift
/// let presenters = FlowPresenters(passcode: passcodePrompt, signIn: WebAuthenticationSignIn())
/// ```
@available(iOSApplicationExtension, unavailable)
public struct WebAuthenticationSignIn: SignInBrowser {
    /// Whether the page opens in a private browser session.
    public let prefersEphemeralSession: Bool

    /// A browser over `ASWebAuthenticationSession`.
    ///
    /// - Parameter prefersEphemeralSession: `true` opens the page without Safari's cookies, so the
    ///   user always types their credentials and the system skips its "wants to use … to sign
    ///   in" alert; `false` shares Safari's cookies, so a user already signed in to the identity
    ///   provider passes straight through.
    public init(prefersEphemeralSession: Bool = true) {
        self.prefersEphemeralSession = prefersEphemeralSession
    }

    /// Shows `authorizationURL` and returns the redirect to `callbackScheme`; cancelling the
    /// calling task closes the page.
    ///
    /// - Throws: `CancellationError` when the user closes the page or the task is cancelled,
    ///   ``WebAuthenticationSignInError`` when the page cannot be shown or fails.
    public func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL {
        let session = Session()
        let prefersEphemeralSession = prefersEphemeralSession
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Task { @MainActor in
                    session.start(
                        at: authorizationURL, callbackScheme: callbackScheme,
                        prefersEphemeralSession: prefersEphemeralSession, resuming: continuation
                    )
                }
            }
        } onCancel: {
            Task { @MainActor in session.finish(.failure(CancellationError())) }
        }
    }

    // MARK: - Session

    /// One sign-in: the system session, the window it shows over, and the caller waiting for
    /// its answer, resumed exactly once whichever of the redirect, the user, the task's
    /// cancellation or a failure comes first.
    @MainActor
    private final class Session {
        private var continuation: CheckedContinuation<URL, any Error>?
        private var outcome: Result<URL, any Error>?
        private var authentication: ASWebAuthenticationSession?
        private var anchor: WindowAnchor?

        nonisolated init() {}

        func start(
            at url: URL, callbackScheme: String, prefersEphemeralSession: Bool,
            resuming continuation: CheckedContinuation<URL, any Error>
        ) {
            self.continuation = continuation
            guard outcome == nil else { return resume() }
            guard let window = UIApplication.shared.foregroundKeyWindow else {
                return finish(.failure(WebAuthenticationSignInError.noWindow))
            }
            // iOS 17.4's init(url:callback:completionHandler:) also takes an https callback;
            // the flows redirect to a custom scheme, which this initializer covers on every version.
            let authentication = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) {
                @Sendable callbackURL, error in
                let result = Self.result(callbackURL: callbackURL, error: error)
                Task { @MainActor in self.finish(result) }
            }
            let anchor = WindowAnchor(window: window)
            authentication.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            authentication.presentationContextProvider = anchor
            self.authentication = authentication
            self.anchor = anchor
            guard authentication.start() else {
                return finish(.failure(WebAuthenticationSignInError.couldNotStart))
            }
        }

        /// Ends the sign-in with `result` unless it has ended already.
        func finish(_ result: Result<URL, any Error>) {
            guard outcome == nil else { return }
            outcome = result
            // Closes the sheet when the task's cancellation ends the sign-in; no effect once the
            // session has completed.
            authentication?.cancel()
            authentication = nil
            anchor = nil
            resume()
        }

        private func resume() {
            guard let continuation, let outcome else { return }
            self.continuation = nil
            continuation.resume(with: outcome)
        }

        /// The system's answer as the flows expect it.
        private nonisolated static func result(callbackURL: URL?, error: (any Error)?) -> Result<URL, any Error> {
            if let callbackURL { return .success(callbackURL) }
            switch error {
            case ASWebAuthenticationSessionError.canceledLogin?:
                return .failure(CancellationError())
            case ASWebAuthenticationSessionError.presentationContextNotProvided?,
                ASWebAuthenticationSessionError.presentationContextInvalid?:
                return .failure(WebAuthenticationSignInError.noWindow)
            case let error?:
                return .failure(WebAuthenticationSignInError.failed(error.localizedDescription))
            case nil:
                return .failure(WebAuthenticationSignInError.failed("the page closed without a redirect"))
            }
        }
    }

    /// Tells the session which window to show the page over.
    private final class WindowAnchor: NSObject, ASWebAuthenticationPresentationContextProviding {
        let window: UIWindow

        init(window: UIWindow) {
            self.window = window
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            window
        }
    }
}
#endif
