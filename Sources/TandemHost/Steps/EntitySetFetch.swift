import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets

/// How the host fetches what a widget's request names: the entity-set page, with an access token
/// from the vault's tokens (refreshed single-flight if needed), or an API-key app's key from the
/// vault. The snapshot lives `lifetime` seconds. When the user's own grant has ended, the extensions are told `reauthRequired`, so
/// the widgets say "open the app" instead of waiting.
public struct EntitySetFetch: Sendable {
    private let client: AppClient
    private let container: SharedContainer
    private let lifetime: TimeInterval

    /// A fetcher over `client` that publishes an ended session in `container`.
    public init(client: AppClient, container: SharedContainer, lifetime: TimeInterval = DataWidgetSchedule.defaultFreshness) {
        self.client = client
        self.container = container
        self.lifetime = lifetime
    }

    /// Fetches `request`'s page with the vault (opened by the request's paired key) supplying tokens.
    public func fetch(_ request: DataRequest, with vault: Vault) async throws -> FetchedData {
        let key = try request.decodeKey(EntitySetKey.self)
        let credentials = try RequestCredentials.host(client: client, vault: vault, publishingEndIn: container)
        let response = try await client.get(key.resourcePath, credentials: credentials)
        guard response.isSuccess else { throw AuthError(response: response) }
        return FetchedData(payload: response.body, etag: response.headers["ETag"], lifetime: lifetime)
    }
}
