#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform
import TandemSharedContainer

/// Gives out valid access tokens and refreshes them **once** across every process that shares a
/// grant (the host and its extensions), so a rotating refresh token is never redeemed twice.
///
/// A process that needs a refresh takes the grant's lease (in the shared container for the
/// extensions' grant, in the host's private directory for the user's own). The others wait for the holder, then re-read the ``TokenStore`` and reuse the result it saved. The
/// holder re-reads the store under the lease before redeeming (another process may have finished
/// just before), saves the new tokens, and only then releases the lease. A holder killed
/// mid-refresh blocks the others only until the lease expires; then one of them breaks it.
///
/// A holder slower than the lease duration loses its lease to a peer, which then redeems the same
/// refresh token; the server's grace window answers such a retry with the same successor, so
/// both end up with the same tokens. Keep `leaseDuration` well above a token request's timeout.
///
/// A grant bound to a DPoP key refreshes the same way: whichever process wins the lease signs
/// the refresh with the grant's key (``dpopKey``, the same key in every process sharing the
/// grant), and a peer that lost its lease and redeems again gets the same successor from the
/// server's grace window. Its access tokens go out as `DPoP` credentials (``accessCredential()``).
///
/// On `invalid_grant` the store is cleared, `onReauthenticationRequired` runs (in an extension:
/// ``markReauthenticationRequired(in:)``), and ``AuthError/reauthenticationRequired`` is thrown.
///
/// ```swift
/// let coordinator = RefreshCoordinator(
///     store: SharedGrantStore(container: container, share: share), leases: container.leases, oauth: oauth,
///     onReauthenticationRequired: RefreshCoordinator.markReauthenticationRequired(in: container))
/// let token = try await coordinator.validAccessToken(minimumValidity: 60)
/// ```
public final class RefreshCoordinator: AccessTokenProvider {
    /// Redeems a token set's refresh token; usually ``OAuthClient/refresh(_:)``.
    public typealias Redeemer = @Sendable (TokenSet) async throws(AuthError) -> TokenSet

    /// Where the tokens live; every process sharing the grant uses the same store.
    public let store: any TokenStore
    /// Where the lease is taken: a directory every process sharing the grant can write.
    public let leases: SharedLeases
    /// The lease's name; one per grant (host and extension grants use different names).
    public let leaseName: String
    /// How long a lease counts: the longest a dead holder can block the others.
    public let leaseDuration: TimeInterval
    /// The key the grant is bound to, when it is: it signs the proofs of resource requests made
    /// with its tokens. The `redeem` closure signs refreshes (with the same key).
    public let dpopKey: (any DPoPKeyProvider)?
    let redeem: Redeemer
    let onReauthenticationRequired: @Sendable () -> Void
    let onEvent: @Sendable (RefreshEvent) -> Void
    let clock: any WallClock
    let logger: Logger

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - store: Where the tokens are loaded from and saved to.
    ///   - leases: Where the lease is taken: `SharedContainer/leases` for a grant the extensions
    ///     share, a private directory for the host's own (see ``host(vault:oauth:leaseDuration:onReauthenticationRequired:onEvent:)``).
    ///   - leaseName: The lease's name; ``hostLeaseName`` by default.
    ///   - leaseDuration: Seconds a lease counts; about 10 s by default.
    ///   - redeem: Redeems the refresh token (``OAuthClient/refresh(_:)``).
    ///   - dpopKey: The key a DPoP-bound grant is bound to; `nil` for a bearer grant.
    ///   - onReauthenticationRequired: Runs once the store is cleared after `invalid_grant`.
    ///   - onEvent: Observes what happens; called synchronously, keep it short.
    ///   - clock: The time tokens and leases expire by, and waits for a peer's lease run on.
    ///   - logger: Receives what happened; never a token.
    public init(
        store: any TokenStore, leases: SharedLeases, leaseName: String = RefreshCoordinator.hostLeaseName,
        leaseDuration: TimeInterval = 10, redeem: @escaping Redeemer, dpopKey: (any DPoPKeyProvider)? = nil,
        onReauthenticationRequired: @escaping @Sendable () -> Void = {},
        onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in },
        clock: any WallClock = SystemClock(), logger: Logger = Logger(label: "tandem.auth.refresh")
    ) {
        self.store = store
        self.leases = leases
        self.leaseName = leaseName
        self.leaseDuration = leaseDuration
        self.redeem = redeem
        self.dpopKey = dpopKey
        self.onReauthenticationRequired = onReauthenticationRequired
        self.onEvent = onEvent
        self.clock = clock
        self.logger = logger
    }

    /// Creates a coordinator that redeems through `oauth`, with `oauth`'s own ``OAuthClient/dpopKey``
    /// for a bound grant, and reads the time from `oauth`'s clock; see the designated
    /// initializer for the other parameters.
    public convenience init(
        store: any TokenStore, leases: SharedLeases, oauth: OAuthClient, leaseName: String = RefreshCoordinator.hostLeaseName,
        leaseDuration: TimeInterval = 10, onReauthenticationRequired: @escaping @Sendable () -> Void = {},
        onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) {
        self.init(
            store: store, leases: leases, leaseName: leaseName, leaseDuration: leaseDuration,
            redeem: { tokens throws(AuthError) in try await oauth.refresh(tokens) }, dpopKey: oauth.dpopKey,
            onReauthenticationRequired: onReauthenticationRequired, onEvent: onEvent, clock: oauth.clock)
    }

    /// A ready-made `onReauthenticationRequired` for extensions: it sets the widget-facing
    /// status in `container` to `SessionStatus/State/reauthRequired`, dated by `clock`.
    public static func markReauthenticationRequired(
        in container: SharedContainer, logger: Logger = Logger(label: "tandem.auth.refresh"), clock: any WallClock = SystemClock()
    ) -> @Sendable () -> Void {
        {
            do {
                try container.setStatus(SessionStatus(state: .reauthRequired, updatedAt: clock.now, reason: "invalid_grant on refresh"))
            } catch {
                logger.error("cannot record reauthRequired in the shared container", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: - Access tokens

    /// The stored access token if it stays valid for `minimumValidity` seconds, otherwise a
    /// refreshed one (single-flight across processes).
    ///
    /// - Throws: ``AuthError/notSignedIn`` when nothing is stored,
    ///   ``AuthError/reauthenticationRequired`` when the grant is gone, and refresh errors.
    public func validAccessToken(minimumValidity: TimeInterval = 30) async throws(AuthError) -> String {
        try await validTokens(minimumValidity: minimumValidity).accessToken
    }

    /// The stored tokens if their access token stays valid for `minimumValidity` seconds,
    /// otherwise refreshed ones; see ``validAccessToken(minimumValidity:)``.
    public func validTokens(minimumValidity: TimeInterval = 30) async throws(AuthError) -> TokenSet {
        guard let tokens = try store.load() else { throw .notSignedIn }
        if tokens.isValid(for: minimumValidity, at: clock.now) { return tokens }
        return try await refresh(replacing: tokens.accessToken)
    }

    /// ``validAccessToken(minimumValidity:)`` with a 30 s margin, for ``BearerTokenMiddleware``.
    public func accessToken() async throws(AuthError) -> String {
        try await validAccessToken()
    }

    /// ``refresh(replacing:)``'s access token, for ``BearerTokenMiddleware`` after a 401.
    public func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String {
        try await refresh(replacing: staleAccessToken).accessToken
    }

    /// ``validTokens(minimumValidity:)``'s access token with a 30 s margin, with ``dpopKey``'s key
    /// when the grant is bound to it.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when the grant is bound and there is no usable key.
    public func accessCredential() async throws(AuthError) -> AccessCredential {
        try credential(for: try await validTokens())
    }

    /// ``refresh(replacing:)``'s access token, with ``dpopKey``'s key when the grant is bound.
    public func refreshedAccessCredential(replacing staleAccessToken: String) async throws(AuthError) -> AccessCredential {
        try credential(for: try await refresh(replacing: staleAccessToken))
    }

    private func credential(for tokens: TokenSet) throws(AuthError) -> AccessCredential {
        guard tokens.isDPoPBound else { return AccessCredential(token: tokens.accessToken) }
        guard let dpopKey else { throw .dpopKey("the grant is bound to a DPoP key, and no key was given to sign its requests") }
        return AccessCredential(token: tokens.accessToken, proofKey: try dpopKey.key())
    }
}
