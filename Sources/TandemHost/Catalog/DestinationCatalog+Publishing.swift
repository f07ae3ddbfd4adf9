import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets

/// How the host fetches the catalog for its widgets and publishes it, sealed, in the shared container.
extension DestinationCatalog {
    /// Fetches `GET /v1/destinations` with `credentials` (the host's tokens or the app's API key)
    /// and makes it a catalog.
    ///
    /// - Throws: `AuthError` for a refused or failed request, and
    ///   `AuthError/malformedResponse(_:)` for a body that is not the listing.
    public static func fetch(with client: AppClient, credentials: RequestCredentials, now: Date = Date()) async throws(AuthError) -> DestinationCatalog {
        let response = try await client.get(APIPath.destinations, credentials: credentials)
        guard response.isSuccess else { throw AuthError(response: response) }
        do {
            return try DestinationCatalog(listing: response.body, fetchedAt: now)
        } catch {
            throw .malformedResponse(error.description)
        }
    }

    /// Writes the catalog sealed under a key derived from `share`, replacing the previous one.
    ///
    /// - Throws: `SharedContainerError/unencodable(_:)`, `SharedContainerError/io(_:)`.
    public func write(to container: SharedContainer, share: AuxiliaryShare) throws(SharedContainerError) {
        try container.sealed.write(value: self, kind: Self.recordPath, to: Self.recordPath, key: Self.key(share))
    }
}
