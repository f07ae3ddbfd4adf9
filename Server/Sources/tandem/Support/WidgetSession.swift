import Foundation
import TandemAuth
import TandemBridge
import TandemVault

/// What a widget process opens to use its own extension grant (direct mode): the grant sealed in
/// the shared container under a key derived from the auxiliary share, and the coordinator that
/// refreshes it single-flight across every process sharing the container. A dead grant sets the
/// shared status to `reauthRequired`: the widget then shows "open the app".
struct WidgetSession: Sendable {
    let home: ExtensionHome
    let client: AppClient
    let coordinator: RefreshCoordinator

    /// Opens the widget's side of `home`.
    ///
    /// - Parameters:
    ///   - role: `widget`, or `host` when the host uses the widgets' grant.
    ///   - leaseDuration: Seconds a refresh lease lasts before others may break it.
    ///   - onEvent: Told of every step of a refresh (lease taken, refreshed, reused, waited).
    init(home: ExtensionHome, role: String, leaseDuration: TimeInterval = 10, onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }) throws {
        self.home = home
        client = AppClient(configuration: try home.clientConfiguration(), role: role)
        coordinator = .extensionGrant(
            container: home.container, share: try home.extensionCredentials().share, oauth: client.oauth,
            leaseDuration: leaseDuration, onEvent: onEvent)
    }

    /// The grant's current access token, if the widget holds a grant.
    func currentAccessToken() throws(AuthError) -> String? { try coordinator.store.load()?.accessToken }

    /// When `error` means the widget has no grant to use, prints what the host published
    /// (`reauthRequired`, `signedOut`: "open the app") instead of failing; rethrows any other error.
    func printUnavailable(because error: AuthError) throws(AuthError) {
        guard error == .reauthenticationRequired || error == .notSignedIn else { throw error }
        let state = (try? home.container.status()?.state) ?? .signedOut
        JSONLine.print(["result": state == .ready ? SessionStatus.State.reauthRequired.rawValue : state.rawValue])
    }
}
