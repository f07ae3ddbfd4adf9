import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault

/// Answers the extensions' data requests of one kind (`DataRequest/kind`): the host keeps one per
/// kind in ``DataSources`` and hands each pending request to the source of its kind. Entity-set
/// pages (``EntitySetSource``) and key figures (``KeyFigureSource``) are the two that come with
/// Tandem; an app adds its own kind by adding a source.
///
/// ```swift
/// struct WeatherSource: DataSource {
///     let kind = "weather"
///     func fetch(_ request: DataRequest, with vault: Vault, in context: DataSourceContext) async throws -> FetchedData {
///         let key = try request.decodeKey(WeatherKey.self)
///         …
///     }
/// }
/// let step = ExtensionCommunicationStep(sources: DataSources.standard.adding(WeatherSource()))
/// ```
public protocol DataSource: Sendable {
    /// The request kind this source answers.
    var kind: String { get }

    /// Fetches what `request` names, with the vault opened by the request's paired key (read the
    /// refresh token from it, store a rotated one into it).
    ///
    /// - Throws: Whatever the fetch throws; the request stays pending and is tried again.
    func fetch(_ request: DataRequest, with vault: Vault, in context: DataSourceContext) async throws -> FetchedData
}

/// What a ``DataSource`` fetches with: the app's client for its server, the shared container
/// (to publish an ended session), and how long a snapshot counts as fresh.
public struct DataSourceContext: Sendable {
    /// The app's client for its server.
    public let client: AppClient
    /// The App Group container.
    public let container: SharedContainer
    /// Seconds a fetched snapshot counts as fresh.
    public let lifetime: TimeInterval

    /// A context.
    public init(client: AppClient, container: SharedContainer, lifetime: TimeInterval) {
        self.client = client
        self.container = container
        self.lifetime = lifetime
    }
}
