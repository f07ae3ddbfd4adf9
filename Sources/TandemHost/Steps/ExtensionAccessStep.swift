import TandemAuth
import TandemSharedContainer
import TandemVault

/// Lets the app's extensions show its data. Onboarding enables the vault's paired access key
/// (the auxiliary share goes to the extensions' storage), provisions the key their requests are
/// sealed with, issues the widgets' own read-only grant (RFC 8693 token exchange) for direct
/// mode, and publishes the session as `ready`. Restoring re-arms the widgets when they need it:
/// after a new sign-in, when they were told to ask for one (`reauthRequired`), or when their
/// grant is missing; otherwise it keeps what they have.
public struct ExtensionAccessStep: Step {
    public let name = "extension access"

    /// An extension access step.
    public init() {}

    public func onboard(in context: FlowContext) async throws -> StepResult {
        if try !context.vault.status().extensionAccessEnabled {
            try context.vault.enableExtensionAccess(shared: context.sharedSecrets)
        }
        _ = try SharedSealingKey.provision(in: context.sharedSecrets)
        try Task.checkCancellation()
        let granted = try await issueGrant(context)
        try context.container.setStatus(SessionStatus(state: .ready, updatedAt: context.clock.now, reason: "onboarded"))
        return .completed(granted ? "extensions enabled, widgets' grant issued" : "extensions enabled")
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        guard try context.vault.status().extensionAccessEnabled else { return .skipped("extension access is not enabled") }
        guard try context.signedInThisRun || Self.widgetsNeedGrant(context) else { return .completed("widgets' grant kept") }
        _ = try SharedSealingKey.provision(in: context.sharedSecrets)
        let granted = try await issueGrant(context)
        try context.container.setStatus(SessionStatus(state: .ready, updatedAt: context.clock.now, reason: granted ? "extension grant re-issued" : "widgets re-armed"))
        context.widgetsRearmed = true
        return .completed(granted ? "widgets re-armed with a new grant" : "widgets re-armed")
    }

    /// Whether the widgets cannot go on as they are: their status is not `ready`, or they hold
    /// no grant (an OAuth app with extension access only), or a bearer grant while the app now
    /// requires DPoP (the server would refuse its refreshes).
    static func widgetsNeedGrant(_ context: FlowContext) throws -> Bool {
        guard try context.container.status()?.state == .ready else { return true }
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth, let share = try context.auxiliaryShare() else { return false }
        guard let grant = try SharedGrantStore(container: context.container, share: share).load() else { return true }
        return configuration.dpopRequired && !grant.isDPoPBound
    }

    /// Exchanges the user's access token for the widgets' grant and stores it sealed in the
    /// shared container; `false` for an API-key app, which has no user grant to exchange. When
    /// the app requires DPoP the exchange is signed with the widgets' key (made here if they
    /// have none yet), so their grant is bound to the key they hold, not to the host's; the
    /// host's own key proves the use of its bound token.
    private func issueGrant(_ context: FlowContext) async throws -> Bool {
        let configuration = try context.requireConfiguration()
        guard configuration.securityMode == .oauth else { return false }
        let client = try context.client()
        let coordinator = try RefreshCoordinator.host(vault: context.vault, oauth: client.oauth)
        let accessToken = try await coordinator.validAccessToken(minimumValidity: 60)
        let grant = try await client.oauth.exchangeForExtensionGrant(
            accessToken: accessToken, subjectTokenIsBound: try VaultTokenStore(vault: context.vault).load()?.isDPoPBound ?? false,
            dpopKey: configuration.dpopRequired ? context.widgetsDPoPKey : nil)
        try Task.checkCancellation()
        try SharedGrantStore(container: context.container, share: try context.requireAuxiliaryShare()).save(grant)
        return true
    }

}
