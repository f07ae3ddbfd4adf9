import Foundation
import TandemAuth

/// Finds the app's configuration (server, client id, redirect URI, passcode policy) and keeps it
/// in the ``FlowContext`` for the steps after it.
///
/// Onboarding reads it from its ``Source``: a JSON string compiled into the app, an onboarding
/// link's `config=` (checked against the servers the app allows), the server's configuration
/// endpoint, or an SSO link or QR code (whose passcode the authentication step then redeems). `save` keeps it for later starts. Restoring and the background flow use the
/// configuration the app gave the context (the one it saved), and fail if there is none.
///
/// Restoring (the user opening the app) also asks the saved configuration's server for the app's
/// current policies — the passcode policy (with whether Face ID may open the vault), whether DPoP
/// is required, the step-up threshold, lock screen redaction, the scopes to ask for — and keeps
/// them with the saved server, client and redirect URI: an administrator's change reaches the
/// phone the next time the user opens the app, and a phone that is offline then keeps the saved
/// policies until the next time. The background flow does not ask.
public struct ConfigurationStep: Step {
    /// Where onboarding reads the configuration.
    public enum Source: Sendable {
        /// A JSON document, such as one compiled into the app.
        case json(String)
        /// An onboarding link whose `config=` carries it; its server must be in the allowlist.
        case link(URL, allowedServers: ServerAllowlist)
        /// The server's configuration endpoint for `clientID`; the server must be in the allowlist.
        case server(URL, clientID: String, allowedServers: ServerAllowlist)
        /// An SSO onboarding link or the desktop page's QR code: checked (allowlist, this app's
        /// `clientID`, expiry), then the configuration is read from the server it names and the
        /// passcode kept for the authentication step, which redeems it instead of a sign-in.
        /// `pollInterval` is how often to ask while the desktop decides (the server's interval).
        case ssoLink(URL, clientID: String, allowedServers: ServerAllowlist, deviceLabel: String, pollInterval: Duration = .seconds(5))
        /// Any other provider.
        case provider(any ConfigurationProvider)
    }

    public let name = "configuration"
    private let source: Source?
    private let save: @Sendable (ClientConfiguration) throws -> Void

    /// A configuration step.
    ///
    /// - Parameters:
    ///   - source: Where onboarding reads the configuration; `nil` for an app that only restores.
    ///   - save: Keeps the configuration for later starts (it is not secret).
    public init(source: Source?, save: @escaping @Sendable (ClientConfiguration) throws -> Void = { _ in }) {
        self.source = source
        self.save = save
    }

    public func onboard(in context: FlowContext) async throws -> StepResult {
        guard let source else { throw StepFailure("onboarding needs a configuration source") }
        var sso: SSOSignIn?
        var effective = source
        if case .ssoLink(let url, let clientID, let allowedServers, let deviceLabel, let pollInterval) = source {
            let link = try SSOOnboardingLink(url: url, clientID: clientID, allowedServers: allowedServers, now: context.clock.now)
            sso = SSOSignIn(passcode: link.payload.passcode, deviceLabel: deviceLabel, pollInterval: pollInterval)
            effective = .server(link.serverURL, clientID: clientID, allowedServers: allowedServers)
        }
        let configuration = try await provider(for: effective, in: context).configuration()
        try Task.checkCancellation()
        try save(configuration)
        context.configuration = configuration
        context.ssoSignIn = sso
        return .completed("client \(configuration.clientID) at \(configuration.serverURL.host ?? "?")")
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        let saved = try context.requireConfiguration()
        let current: ClientConfiguration
        do {
            current = try await ServerConfigurationProvider(
                serverURL: saved.serverURL, clientID: saved.clientID, client: HTTPClient(transport: context.transport),
                allowedServers: try ServerAllowlist([saved.serverURL])
            ).configuration()
            try Task.checkCancellation()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.notice("the server's policies could not be fetched; the saved ones stay", metadata: ["error": "\(error)"])
            return .completed("saved configuration of client \(saved.clientID) (the server's policies could not be fetched now)")
        }
        let updated = saved.withPolicies(of: current)
        guard updated != saved else { return .completed("saved configuration of client \(saved.clientID), the server's policies unchanged") }
        try save(updated)
        context.configuration = updated
        return .completed("saved configuration of client \(saved.clientID), with the server's policies as they are now")
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        let configuration = try context.requireConfiguration()
        return .completed("saved configuration of client \(configuration.clientID)")
    }

    private func provider(for source: Source, in context: FlowContext) -> any ConfigurationProvider {
        switch source {
        case .json(let json): JSONConfigurationProvider(json: json)
        case .link(let url, let allowedServers): LinkConfigurationProvider(url: url, allowedServers: allowedServers)
        case .server(let url, let clientID, let allowedServers):
            ServerConfigurationProvider(
                serverURL: url, clientID: clientID, client: HTTPClient(transport: context.transport), allowedServers: allowedServers)
        case .provider(let provider): provider
        case .ssoLink(let url, _, let allowedServers, _, _): LinkConfigurationProvider(url: url, allowedServers: allowedServers)
        }
    }
}

extension ClientConfiguration {
    /// This configuration with the policies `current` (the server's document now) carries: the
    /// passcode policy, DPoP, the step-up threshold, lock screen redaction and the scopes; the
    /// server, client, redirect URI and scheme stay this configuration's.
    func withPolicies(of current: ClientConfiguration) -> ClientConfiguration {
        var updated = self
        updated.passcodePolicy = current.passcodePolicy
        updated.dpopRequired = current.dpopRequired
        updated.actionPolicy = current.actionPolicy
        updated.lockScreenRedaction = current.lockScreenRedaction
        updated.scopes = current.scopes
        updated.ssoLinkHost = current.ssoLinkHost
        return updated
    }
}
