#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemSharedContainer

/// What an extension opens to use its own scoped grant (direct mode): the grant sealed in the
/// shared container under a key derived from the auxiliary share, and the coordinator that
/// refreshes it single-flight across every process sharing the container.
///
/// ```swift
/// let session = ExtensionSession(container: container, share: share, client: client)
/// do {
///     let page = try await session.client.get("/v1/destinations/sales/SalesOrders", tokens: session.coordinator)
/// } catch {
///     guard let state = session.unavailableState(after: error) else { throw error }
///     // show "open the app" (reauthRequired) or the sign-in link (signedOut)
/// }
/// ```
public struct ExtensionSession: Sendable {
    /// The shared container holding the grant, its lease and the session status.
    public let container: SharedContainer
    /// The app's HTTP and OAuth clients.
    public let client: AppClient
    /// Refreshes the grant single-flight across processes; pass it as the token provider.
    public let coordinator: RefreshCoordinator

    /// Opens the extension's side of `container`.
    ///
    /// - Parameters:
    ///   - container: The App Group container the host and its extensions share.
    ///   - share: The auxiliary share, from the extensions' secret storage.
    ///   - client: The app's clients, built for this process's role.
    ///   - dpopKey: The widgets' key, read from the shared secret storage
    ///     (``DPoPKeyStore/widgets(in:makesMissingKey:)`` without `makesMissingKey`): a
    ///     DPoP-bound grant's refreshes and requests are signed with it. `nil` for a bearer grant.
    ///   - leaseDuration: Seconds a refresh lease lasts before another process may break it.
    ///   - onEvent: Told of every step of a refresh (lease taken, refreshed, reused, waited).
    public init(
        container: SharedContainer, share: AuxiliaryShare, client: AppClient, dpopKey: (any DPoPKeyProvider)? = nil,
        leaseDuration: TimeInterval = 10, onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) {
        self.container = container
        self.client = client
        coordinator = .extensionGrant(
            container: container, share: share, oauth: client.oauth, dpopKey: dpopKey, leaseDuration: leaseDuration, onEvent: onEvent)
    }

    /// The grant's current access token, or `nil` when the extension holds no grant.
    public func currentAccessToken() throws(AuthError) -> String? { try coordinator.store.load()?.accessToken }

    /// The state an extension shows instead of data when `error` means it has no grant to use:
    /// what the host published (`signedOut`, `reauthRequired`), and `reauthRequired` when the
    /// host still claims `ready` (the grant died before the host noticed). `nil` for any other
    /// error, which the caller handles as a failure.
    public func unavailableState(after error: any Error) -> SessionStatus.State? {
        guard let error = error as? AuthError, error == .reauthenticationRequired || error == .notSignedIn else { return nil }
        let state = (try? container.status()?.state) ?? .signedOut
        return state == .ready ? .reauthRequired : state
    }
}
