import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets

/// The data source of entity-set pages (kind ``EntitySetKey/kind``): the page a widget's request
/// names, with an access token from the vault's tokens (refreshed single-flight if needed), or
/// an API-key app's key from the vault. When the user's own grant has ended, the extensions are
/// told `reauthRequired`, so the widgets say "open the app" instead of waiting. A customer's
/// backend that refuses the user (``DataRefusal``: `backend_forbidden`, `backend_unauthorized`)
/// is an answer, not a failure: the refusal is written as the snapshot (for at most
/// ``refusalLifetime``), so the widget says so instead of asking again at every run.
public struct EntitySetSource: DataSource {
    public let kind = EntitySetKey.kind
    /// The longest a backend's refusal stands before the set is asked for again.
    public static let refusalLifetime: TimeInterval = 15 * 60

    /// The entity-set source.
    public init() {}

    /// Fetches `request`'s page with the vault (opened by the request's paired key) supplying tokens.
    public func fetch(_ request: DataRequest, with vault: Vault, in context: DataSourceContext) async throws -> FetchedData {
        let key = try request.decodeKey(EntitySetKey.self)
        let credentials = try RequestCredentials.host(client: context.client, vault: vault, publishingEndIn: context.container)
        let response = try await context.client.get(key.resourcePath, credentials: credentials)
        if response.status == 403, DataRefusal(payload: response.body) != nil {
            return FetchedData(payload: response.body, lifetime: min(context.lifetime, Self.refusalLifetime))
        }
        guard response.isSuccess else { throw AuthError(response: response) }
        return FetchedData(payload: response.body, etag: response.headers["ETag"], lifetime: context.lifetime)
    }
}
