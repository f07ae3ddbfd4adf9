import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault
import TandemWidgetModel

/// The data source of key figures (kind ``KeyFigureKey/kind``): reads the one-row page of the
/// figure's set and writes the figure alone (``KeyFigure``, JSON), so a widget that shows a
/// single number never holds the rows it came from.
public struct KeyFigureSource: DataSource {
    public let kind = KeyFigureKey.kind

    /// The key-figure source.
    public init() {}

    public func fetch(_ request: DataRequest, with vault: Vault, in context: DataSourceContext) async throws -> FetchedData {
        let key = try request.decodeKey(KeyFigureKey.self)
        let credentials = try RequestCredentials.host(client: context.client, vault: vault, publishingEndIn: context.container)
        let response = try await context.client.get(key.resourcePath, credentials: credentials)
        guard response.isSuccess else { throw AuthError(response: response) }
        let figure = try KeyFigure(page: response.body, field: key.field)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return FetchedData(payload: try encoder.encode(figure), etag: response.headers["ETag"], lifetime: context.lifetime)
    }
}
