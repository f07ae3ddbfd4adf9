import Foundation
import TandemAuth
import TandemProtocol
import TandemSharedContainer

/// Sends queued analytics events to the server's `POST /v1/events` as one batch. The host does
/// this with the user's token; an extension's read-only grant is refused, so events queued by
/// widgets reach the server only through the host.
///
/// ```swift
/// let sent = try await container.events.drain(limit: 500) { events in
///     try await EventUpload.send(events, with: client, tokens: coordinator)
/// }
/// ```
public enum EventUpload {
    /// Posts `events` with `provider`'s access token (a DPoP-bound one with its proof).
    ///
    /// - Throws: `AuthError` for a refused upload (a widget's read-only grant gets
    ///   `insufficient_scope`), so the caller keeps the events queued.
    public static func send(_ events: [QueuedEvent], with client: AppClient, tokens provider: any AccessTokenProvider) async throws(AuthError) {
        let batch = EventBatchDocument(events: events.map { event in
            EventBatchDocument.Event(
                id: event.id, name: event.name, timestamp: ISO8601Time.string(from: event.timestamp),
                properties: event.properties.mapValues(JSONValue.string))
        })
        let body: Data
        do {
            body = try JSONEncoder().encode(batch)
        } catch {
            throw .malformedResponse("cannot encode the event batch: \(error)")
        }
        let request = HTTPRequest(method: .post, url: try client.url(APIPath.events), headers: ["Content-Type": "application/json"], body: body)
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }
}
