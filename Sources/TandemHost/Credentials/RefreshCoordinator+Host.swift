import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault

extension RefreshCoordinator {
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
    /// - Throws: `AuthError/storage(_:)` when the lease directory cannot be created.
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
