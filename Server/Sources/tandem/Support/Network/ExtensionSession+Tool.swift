import Foundation
import TandemAuth
import TandemSharedContainer
import TandemTool

extension ExtensionHome {
    /// The widgets' side of this home: their sealed grant and its single-flight refresh, with
    /// the widgets' DPoP key from the shared secret storage for a bound grant (read only: the
    /// host makes it when it mints the grant).
    ///
    /// - Parameters:
    ///   - role: `widget`, or `host` when the host uses the widgets' grant.
    ///   - leaseDuration: Seconds a refresh lease lasts before others may break it.
    ///   - onEvent: Told of every step of a refresh (lease taken, refreshed, reused, waited).
    func extensionSession(
        role: String, leaseDuration: TimeInterval = 10, onEvent: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) throws -> ExtensionSession {
        ExtensionSession(
            container: container, share: try extensionCredentials().share,
            client: .tool(try clientConfiguration(), role: role),
            dpopKey: DPoPKeyStore.widgets(in: sharedSecrets, makesMissingKey: false), leaseDuration: leaseDuration, onEvent: onEvent)
    }
}

extension ExtensionSession {
    /// When `error` means the widget has no grant to use, prints what it shows instead
    /// (`reauthRequired`, `signedOut`: "open the app") rather than failing; rethrows any other error.
    func printUnavailable(because error: any Error) throws {
        guard let state = unavailableState(after: error) else { throw error }
        JSONLine.print(["result": state.rawValue])
    }
}
