import TandemAuth
import TandemSharedContainer
import TandemVault

extension RequestCredentials {
    /// The host's credentials for `client`'s app, from `vault` (unlocked): the user's tokens
    /// through `RefreshCoordinator/host(vault:oauth:leaseDuration:onReauthenticationRequired:onEvent:)` for an
    /// OAuth app, the key in ``VaultAPIKeyStore`` for an API-key app.
    ///
    /// - Parameters:
    ///   - client: The app's client; its configuration says which kind of app it is.
    ///   - vault: The host's vault, unlocked (by the passcode, or by a request's paired key).
    ///   - container: Where to tell the extensions `reauthRequired` when the user's grant has
    ///     ended; `nil` to leave their status alone.
    /// - Throws: `AuthError/reauthenticationRequired` when an API-key app has no key stored;
    ///   `AuthError/storage(_:)` when the vault cannot be read.
    public static func host(client: AppClient, vault: Vault, publishingEndIn container: SharedContainer? = nil) throws(AuthError) -> RequestCredentials {
        switch client.configuration.securityMode {
        case .apiKey:
            guard let key = try VaultAPIKeyStore(vault: vault).load() else { throw .reauthenticationRequired }
            return .apiKey(key)
        case .oauth:
            var publish: @Sendable () -> Void = {}
            if let container { publish = RefreshCoordinator.markReauthenticationRequired(in: container, clock: client.oauth.clock) }
            return .tokens(try RefreshCoordinator.host(vault: vault, oauth: client.oauth, onReauthenticationRequired: publish))
        }
    }
}
