import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault

extension RefreshCoordinator {
    /// The coordinator of the host's own grant: the tokens in the (unlocked) vault, the lease in
    /// ``hostLeaseDirectory(of:)`` beside the vault, where no extension can write.
    ///
    /// A grant bound to a DPoP key is refreshed, and its requests signed, with `oauth`'s
    /// `dpopKey`, or when it has none with the host's key in the vault's secret storage
    /// (`DPoPKeyStore.host(in:makesMissingKey:)`, never making one: a new key could not use
    /// the grant). A bearer grant never reads a key.
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
        let dpopKey = oauth.dpopKey ?? DPoPKeyStore.host(in: vault.secretStorage, makesMissingKey: false)
        return RefreshCoordinator(
            store: VaultTokenStore(vault: vault), leases: leases, leaseName: hostLeaseName, leaseDuration: leaseDuration,
            redeem: { tokens throws(AuthError) in try await oauth.refresh(tokens, dpopKey: dpopKey) }, dpopKey: dpopKey,
            onReauthenticationRequired: onReauthenticationRequired, onEvent: onEvent, clock: oauth.clock)
    }

    /// Where the host's processes take the lease of the user's grant: `leases` in the vault's
    /// (private) directory.
    public static func hostLeaseDirectory(of vault: Vault) -> URL {
        vault.directory.appendingPathComponent("leases", isDirectory: true)
    }
}
