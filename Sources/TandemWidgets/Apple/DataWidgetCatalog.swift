#if canImport(AppIntents) && os(iOS)
import Logging
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel

/// Where the App Intents configuration of a business widget finds its choices: the
/// `DestinationCatalog` the host cached, sealed, in the shared container.
///
/// The system creates ``EntitySetEntity/Query`` with `init()`, so the query cannot be handed the
/// container; the widget extension installs it here once, when it starts, before any query runs
/// (in its `WidgetBundle`'s `init()`). Until then, and whenever the catalog cannot be had (no
/// catalog yet, credentials unreadable, the file damaged or written by someone else), the
/// configuration offers no choices: never a crash, never a record it cannot trust.
///
/// The extension needs the App Groups entitlement (`com.apple.security.application-groups`) for
/// the container and the keychain sharing group (`keychain-access-groups`) for the share.
///
/// ```swift
/// @main struct SalesWidgets: WidgetBundle {
///     init() { DataWidgetCatalog.install(from: Widgets.provider) }
///     var body: some Widget { OrdersWidget() }
/// }
/// ```
public enum DataWidgetCatalog {
    /// What ``options()`` reads.
    struct Source: Sendable {
        let container: SharedContainer
        let credentials: any WidgetCredentialSource
        let logger: Logger
    }

    private static let source = Locked<Source?>(nil)

    /// Reads the catalog from `container`, opened with the share `credentials` gives, from now
    /// on; a second call replaces the first.
    ///
    /// - Parameters:
    ///   - container: The App Group container the host writes the catalog to.
    ///   - credentials: The source of the extensions' auxiliary share.
    ///   - logger: Receives a line when the catalog cannot be read; never a secret.
    public static func install(
        container: SharedContainer, credentials: any WidgetCredentialSource, logger: Logger = Logger(label: "tandem.widgets")
    ) {
        source.withLock { $0 = Source(container: container, credentials: credentials, logger: logger) }
    }

    /// Reads the catalog from the container and with the credentials of `provider`.
    public static func install(from provider: DataWidgetProvider) {
        install(container: provider.container, credentials: provider.credentials, logger: provider.logger)
    }

    /// The choices the catalog offers now, in the server's order; empty when nothing is
    /// installed or the catalog cannot be read or trusted (the reason is logged).
    public static func options() -> [DestinationCatalog.Option] {
        guard let source = source.withLock({ $0 }) else { return [] }
        let found: WidgetCredentials?
        do {
            found = try source.credentials.credentials()
        } catch {
            source.logger.notice("no widget choices: the credentials cannot be read now", metadata: ["error": "\(error)"])
            return []
        }
        guard let share = found?.share else { return [] }
        do {
            return try DestinationCatalog.read(from: source.container, share: share, logger: source.logger)?.options ?? []
        } catch {
            source.logger.notice("no widget choices: the catalog cannot be read now", metadata: ["error": "\(error)"])
            return []
        }
    }
}
#endif
