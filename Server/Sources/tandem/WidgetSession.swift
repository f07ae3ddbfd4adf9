import Foundation
import TandemAuth
import TandemBridge
import TandemVault

/// What a widget process opens to use its own extension grant (direct mode): the grant store in
/// the shared container, sealed under a key derived from the auxiliary share, and the
/// coordinator that refreshes it single-flight across every process sharing the container.
struct WidgetSession: Sendable {
    let home: ExtensionHome
    let client: AppClient
    let grants: SharedGrantStore
    let coordinator: RefreshCoordinator

    /// Opens the widget's side of `home`.
    ///
    /// - Parameters:
    ///   - role: `widget`, or `host` when the host uses the widgets' grant.
    ///   - leaseDuration: How long a refresh lease lasts before others may break it.
    ///   - onEvent: Told of every step of a refresh (lease taken, refreshed, reused, waited).
    init(home: ExtensionHome, role: String, leaseDuration: TimeInterval = 10, onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }) throws {
        self.home = home
        client = AppClient(configuration: try home.clientConfiguration(), role: role)
        let (share, _) = try home.extensionCredentials()
        grants = SharedGrantStore(container: home.container, share: share)
        let container = home.container
        coordinator = RefreshCoordinator(
            store: grants, container: container, oauth: client.oauth, leaseName: ExtensionHome.grantRefreshLease,
            leaseDuration: leaseDuration,
            // The widget cannot sign in: it tells the host, and shows "open the app".
            onReauthenticationRequired: RefreshCoordinator.markReauthenticationRequired(in: container, logger: ToolLogger.make(label: "tandem.widget")),
            onEvent: onEvent)
    }
}
