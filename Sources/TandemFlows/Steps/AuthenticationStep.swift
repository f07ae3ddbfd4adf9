import Foundation
import TandemAuth
import TandemBridge

/// Signs the user in. It runs after the vault step, so the tokens go straight into the vault.
///
/// - Onboarding: authorization code + PKCE through the ``SignInBrowser``, unless the vault
///   already holds a working session (an onboarding resumed after this step).
/// - Restoring: checks with the server that the user's own grant still works (one refresh). When
///   it has ended (`invalid_grant`: expired, revoked, or its family revoked after a replayed
///   token) the extensions are told `signedOut` and the user signs in again;
///   ``FlowContext/signedInThisRun`` then tells the extension access step to re-arm the widgets.
///   With no ``SignInBrowser`` the step fails with `AuthError.reauthenticationRequired`.
/// - API-key apps have no user session: the step skips, the app's key goes with each request.
///
/// A sign-in the user abandons ends the flow with the browser's error and the vault keeps no new
/// tokens. (A restore whose session had ended has already told the extensions `signedOut`, which
/// is the truth until the user signs in.)
public struct AuthenticationStep: Step {
    public let name = "authentication"

    /// An authentication step.
    public init() {}

    public func onboard(in context: FlowContext) async throws -> StepResult {
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth else { return .skipped("API-key app: no user sign-in") }
        if try await hasWorkingSession(context, confirmWithServer: false) { return .completed("already signed in (onboarding resumed)") }
        try await signIn(context)
        return .completed("signed in")
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth else { return .skipped("API-key app: no user sign-in") }
        if try await hasWorkingSession(context, confirmWithServer: true) { return .completed("session continues") }
        try context.container.setStatus(SessionStatus(state: .signedOut, reason: "the user's grant ended; sign in again"))
        // With nobody to sign in (a host restoring without a browser), the restore ends here:
        // the extensions now say so, and only a sign-in helps.
        guard context.presenters.signIn != nil else { throw AuthError.reauthenticationRequired }
        try await signIn(context)
        return .completed("session had ended: signed in again")
    }

    /// Whether the vault's tokens still give an access token; a refresh that finds the grant
    /// gone means no. With `confirmWithServer` (every restore) the step always refreshes: an
    /// access token that has not expired yet may belong to a family revoked meanwhile (another
    /// device replayed a token, an administrator ended the session), and only the server knows.
    private func hasWorkingSession(_ context: FlowContext, confirmWithServer: Bool) async throws -> Bool {
        let client = try context.client()
        guard try VaultTokenStore(vault: context.vault).load() != nil else { return false }
        let coordinator = try RefreshCoordinator.host(vault: context.vault, oauth: client.oauth)
        do {
            _ = try await coordinator.validAccessToken(minimumValidity: 60)
            // A token that looks valid may belong to a revoked family; when the widgets lost
            // their grant or were told to ask for a new sign-in, a refresh tells for sure.
            if try confirmWithServer || ExtensionAccessStep.widgetsNeedGrant(context) {
                _ = try await coordinator.refresh(replacing: nil)
            }
            return true
        } catch AuthError.reauthenticationRequired {
            return false
        }
    }

    private func signIn(_ context: FlowContext) async throws {
        let configuration = try context.requireConfiguration()
        let client = try context.client()
        let browser = try context.presenters.requireSignIn()
        guard let scheme = configuration.redirectURI?.scheme else {
            throw StepFailure("the configuration names no redirect URI to sign in with")
        }
        let pending = try await client.oauth.startAuthorization()
        let redirect = try await browser.signIn(at: pending.url, callbackScheme: scheme)
        try Task.checkCancellation()
        let tokens = try await client.oauth.completeAuthorization(redirect: redirect, for: pending)
        try VaultTokenStore(vault: context.vault).save(tokens)
        context.signedInThisRun = true
    }
}
