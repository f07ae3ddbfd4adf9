import Foundation
import TandemBridge
import TandemVault

extension RefreshCoordinator {
    /// The lease of the host's own grant (the user's tokens in the vault).
    public static let hostLeaseName = "token-refresh"
    /// The lease of the extensions' scoped grant; distinct from the host's, since the two grants
    /// have separate refresh tokens and never need to wait for each other.
    public static let extensionGrantLeaseName = "extension-grant-refresh"

    /// The coordinator an extension uses in direct mode: the grant sealed in `container`
    /// (``SharedGrantStore``), the extension grant's lease in the container, and on
    /// `invalid_grant` the status set to `reauthRequired` (``markReauthenticationRequired(in:logger:)``).
    ///
    /// ```swift
    /// let coordinator = RefreshCoordinator.extensionGrant(container: container, share: share, oauth: oauth)
    /// let token = try await coordinator.validAccessToken(minimumValidity: 60)
    /// ```
    ///
    /// - Parameters:
    ///   - container: The App Group container.
    ///   - share: The extensions' auxiliary share (it keys the sealed grant).
    ///   - oauth: Redeems the grant's refresh token.
    ///   - leaseDuration: Seconds a lease counts; 10 by default.
    ///   - onEvent: Observes what happens; called synchronously.
    public static func extensionGrant(
        container: SharedContainer, share: AuxiliaryShare, oauth: OAuthClient, leaseDuration: TimeInterval = 10,
        onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) -> RefreshCoordinator {
        RefreshCoordinator(
            store: SharedGrantStore(container: container, share: share), leases: container.leases, oauth: oauth,
            leaseName: extensionGrantLeaseName, leaseDuration: leaseDuration,
            onReauthenticationRequired: markReauthenticationRequired(in: container), onEvent: onEvent)
    }

    /// The coordinator of the host's own grant: the tokens in the (unlocked) vault, the lease in
    /// ``hostLeaseDirectory(of:)`` beside the vault, where no extension can write.
    ///
    /// ```swift
    /// let coordinator = try RefreshCoordinator.host(vault: vault, oauth: oauth)
    /// ```
    ///
    /// - Parameters:
    ///   - vault: The host's vault; it must be unlocked while tokens are loaded or saved.
    ///   - oauth: Redeems the refresh token.
    ///   - leaseDuration: Seconds a lease counts; 10 by default.
    ///   - onReauthenticationRequired: Runs after `invalid_grant`, once the tokens are removed;
    ///     the host usually shows its sign-in and publishes `signedOut` or `reauthRequired`.
    ///   - onEvent: Observes what happens; called synchronously.
    /// - Throws: ``AuthError/storage(_:)`` when the lease directory cannot be created.
    public static func host(
        vault: Vault, oauth: OAuthClient, leaseDuration: TimeInterval = 10,
        onReauthenticationRequired: @escaping @Sendable () -> Void = {},
        onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) throws(AuthError) -> RefreshCoordinator {
        let leases: SharedLeases
        do {
            leases = try SharedLeases(directory: hostLeaseDirectory(of: vault))
        } catch {
            throw .storage("cannot prepare the host's lease directory: \(error)")
        }
        return RefreshCoordinator(
            store: VaultTokenStore(vault: vault), leases: leases, oauth: oauth, leaseName: hostLeaseName,
            leaseDuration: leaseDuration, onReauthenticationRequired: onReauthenticationRequired, onEvent: onEvent)
    }

    /// Where the host's processes take the lease of the user's grant: `leases` in the vault's
    /// (private) directory.
    public static func hostLeaseDirectory(of vault: Vault) -> URL {
        vault.directory.appendingPathComponent("leases", isDirectory: true)
    }
}
