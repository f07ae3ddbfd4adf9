import Foundation
import TandemAuth
import TandemProtocol
import TandemSharedContainer

/// Signs the user in. It runs after the vault step, so the tokens go straight into the vault.
///
/// - Onboarding: authorization code + PKCE through the ``SignInBrowser``, unless the vault
///   already holds a working session (an onboarding resumed after this step), or the
///   configuration came from an SSO link or QR code: then its passcode is redeemed (waiting for
///   the desktop's approval where the app asks for it) and no password is typed; the
///   ``ConfirmationPresenter`` asks "Sign in as ‹account›?" before the tokens are kept.
/// - Restoring: checks with the server that the user's own grant still works (one refresh). When
///   it has ended (`invalid_grant`: expired, revoked, or its family revoked after a replayed
///   token) the extensions are told `signedOut` and the user signs in again;
///   ``FlowContext/signedInThisRun`` then tells the extension access step to re-arm the widgets.
///   With no ``SignInBrowser`` the step fails with `AuthError.reauthenticationRequired`.
/// - API-key apps have no user session: onboarding asks the ``APIKeyPrompt`` for the app's key,
///   checks it with the server (`GET /v1/destinations`) and keeps it in the vault, where the
///   settings and background steps find it. A restore checks the stored key; when the server
///   refuses it (revoked) the extensions are told `signedOut` and the prompt is asked again
///   (with no prompt, the flow fails with `AuthError.reauthenticationRequired`).
///
/// Every OAuth sign-in (browser or SSO) enrols the user's step-up key when the step is given one
/// (`stepUpKey`, the same the ``ActionExecutionStep`` signs with): the server then accepts
/// step-up proofs for this sign-in signed by that key and no other, and enrols none later than a
/// few minutes after it. A key that cannot sign (the user cancelled Face ID) leaves the sign-in
/// without one; high-value approvals then need a new sign-in.
///
/// A sign-in the user abandons ends the flow with the browser's error and the vault keeps no new
/// tokens. (A restore whose session had ended has already told the extensions `signedOut`, which
/// is the truth until the user signs in.)
public struct AuthenticationStep: Step {
    public let name = "authentication"
    private let stepUpKey: (@Sendable (FlowContext) async throws -> (any DPoPSigner)?)?

    /// An authentication step.
    ///
    /// - Parameter stepUpKey: The user's step-up key, enrolled with each sign-in (asked for once
    ///   the vault is open, as the sign-in completes); `nil` (the default) enrols none, and
    ///   high-value approvals then wait for an app that enrols one.
    public init(stepUpKey: (@Sendable (FlowContext) async throws -> (any DPoPSigner)?)? = nil) {
        self.stepUpKey = stepUpKey
    }

    public func onboard(in context: FlowContext) async throws -> StepResult {
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth else { return try await useAPIKey(context, restoring: false) }
        if try await hasWorkingSession(context, confirmWithServer: false) { return .completed("already signed in (onboarding resumed)") }
        if let sso = context.ssoSignIn {
            try await redeem(sso, context)
            return .completed("signed in with the desktop's SSO code")
        }
        try await signIn(context)
        return .completed("signed in")
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth else { return try await useAPIKey(context, restoring: true) }
        if try await hasWorkingSession(context, confirmWithServer: true) { return .completed("session continues") }
        try context.container.setStatus(SessionStatus(state: .signedOut, updatedAt: context.clock.now, reason: "the user's grant ended; sign in again"))
        // The push registration ended with the grant: the widgets poll until it is made again.
        try? context.container.widgetPushStatus.remove()
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
        let tokens = try await enrollingStepUpKey(context) { key in
            try await client.oauth.completeAuthorization(redirect: redirect, for: pending, stepUpKey: key)
        }
        try VaultTokenStore(vault: context.vault).save(tokens)
        context.signedInThisRun = true
    }

    /// Redeems the SSO passcode (waiting for the desktop's approval where the app asks for it),
    /// asks the user "Sign in as ‹account›?" with the account the server named, and keeps the
    /// tokens in the vault only on yes; on no they are revoked. The passcode is spent either way.
    ///
    /// The question is what stops a link someone else made (their own passcode, opened by any
    /// web page as `scheme://sso?…`) from onboarding the app into their account unnoticed.
    private func redeem(_ sso: SSOSignIn, _ context: FlowContext) async throws {
        context.ssoSignIn = nil
        guard let confirmation = context.presenters.confirmation else {
            throw StepFailure("an SSO link signs in only once the user confirms the account, and no confirmation presenter was given")
        }
        let oauth = try context.client().oauth
        let grant = try await enrollingStepUpKey(context) { key in
            try await oauth.redeemSSOPasscode(sso.passcode, deviceLabel: sso.deviceLabel, interval: sso.pollInterval, stepUpKey: key)
        }
        try Task.checkCancellation()
        let account = grant.account ?? "an account the server did not name"
        guard await confirmation.confirm(Self.accountQuestion(account)) else {
            try? await oauth.revoke(grant.tokens)
            throw StepFailure("not signed in: the user declined to sign in as \(account)")
        }
        try VaultTokenStore(vault: context.vault).save(grant.tokens)
        context.signedInThisRun = true
    }

    /// Runs `signIn` with the step-up key to enrol, or without one when the step has none or
    /// it cannot be had or cannot sign now (logged: the sign-in goes on without one; nothing was
    /// sent, so the code or passcode is still good).
    private func enrollingStepUpKey<Result>(
        _ context: FlowContext, _ signIn: ((any DPoPSigner)?) async throws -> Result
    ) async throws -> Result {
        var key: (any DPoPSigner)?
        do {
            key = try await stepUpKey?(context)
        } catch {
            context.logger.warning("signing in without a step-up key", metadata: ["error": "\(error)"])
        }
        do {
            let result = try await signIn(key)
            context.stepUpKeyEnrolledWithSignIn = key != nil
            return result
        } catch let error as AuthError {
            guard key != nil, case .stepUpKey(let reason) = error else { throw error }
            context.logger.warning("signing in without a step-up key", metadata: ["error": "\(reason)"])
            return try await signIn(nil)
        }
    }

    /// The question an SSO sign-in asks before it keeps the tokens of `account`.
    public static func accountQuestion(_ account: String) -> String {
        "Sign in as \(account)?"
    }

    // MARK: - API-key apps

    /// The app's key: the stored one (checked with the server when `restoring`), else the
    /// prompt's, checked before it is kept.
    private func useAPIKey(_ context: FlowContext, restoring: Bool) async throws -> StepResult {
        let store = VaultAPIKeyStore(vault: context.vault)
        if let stored = try store.load() {
            guard restoring else { return .completed("API key already in the vault (onboarding resumed)") }
            if try await Self.check(stored, context) == nil { return .completed("API key accepted") }
            try store.clear()
            try context.container.setStatus(SessionStatus(state: .signedOut, updatedAt: context.clock.now, reason: "the app's key was refused; set the app up again"))
            guard context.presenters.apiKey != nil else { throw AuthError.reauthenticationRequired }
        }
        let entered = try await context.presenters.requireAPIKey().apiKey(for: try context.requireConfiguration())
        try Task.checkCancellation()
        if let refusal = try await Self.check(APIKeyAuthentication(apiKey: entered), context) { throw refusal }
        try store.save(entered)
        // A new key counts as a new sign-in: the extension access step re-arms the widgets.
        context.signedInThisRun = true
        return .completed(restoring ? "stored API key refused: a new one accepted" : "API key accepted")
    }

    /// `nil` when the server accepts `key`, else its refusal (401 or 403) as an `AuthError`.
    ///
    /// - Throws: Any other failure: the server unreachable or in trouble says nothing about the key.
    private static func check(_ key: APIKeyAuthentication, _ context: FlowContext) async throws -> AuthError? {
        let response = try await context.client().get(APIPath.destinations, credentials: .apiKey(key))
        if response.status == 401 || response.status == 403 { return AuthError(response: response) }
        guard response.isSuccess else { throw AuthError(response: response) }
        return nil
    }
}
