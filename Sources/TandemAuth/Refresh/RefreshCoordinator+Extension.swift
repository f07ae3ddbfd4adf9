#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemSharedContainer

extension RefreshCoordinator {
    /// The lease of the host's own grant (the user's tokens in the vault).
    public static let hostLeaseName = "token-refresh"
    /// The lease of the extensions' scoped grant; distinct from the host's, since the two grants
    /// have separate refresh tokens and never need to wait for each other.
    public static let extensionGrantLeaseName = "extension-grant-refresh"

    /// The coordinator an extension uses in direct mode: the grant sealed in `container`
    /// (``SharedGrantStore``), the extension grant's lease in the container, and on
    /// `invalid_grant` the status set to `reauthRequired` (``markReauthenticationRequired(in:logger:clock:)``).
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
    ///   - dpopKey: The widgets' key (``DPoPKeyStore/widgets(in:makesMissingKey:)``), which a
    ///     DPoP-bound extension grant's refreshes and requests are signed with, whichever process
    ///     makes them; `nil` when the grant is a bearer grant.
    ///   - leaseDuration: Seconds a lease counts; 10 by default.
    ///   - onEvent: Observes what happens; called synchronously.
    public static func extensionGrant(
        container: SharedContainer, share: AuxiliaryShare, oauth: OAuthClient, dpopKey: (any DPoPKeyProvider)? = nil,
        leaseDuration: TimeInterval = 10, onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) -> RefreshCoordinator {
        RefreshCoordinator(
            store: SharedGrantStore(container: container, share: share), leases: container.leases, leaseName: extensionGrantLeaseName,
            leaseDuration: leaseDuration, redeem: { tokens throws(AuthError) in try await oauth.refresh(tokens, dpopKey: dpopKey) },
            dpopKey: dpopKey, onReauthenticationRequired: markReauthenticationRequired(in: container, clock: oauth.clock),
            onEvent: onEvent, clock: oauth.clock)
    }
}
