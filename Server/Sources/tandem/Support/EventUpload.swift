import Foundation
import TandemAuth
import TandemBridge

/// Sends queued analytics events to the server's `POST /v1/events` as one batch.
enum EventUpload {
    /// Posts `events` with `provider`'s bearer token.
    ///
    /// - Throws: ``AuthError`` for a refused upload (a widget's read-only grant gets
    ///   `insufficient_scope`), so the caller keeps the events queued.
    static func send(_ events: [QueuedEvent], with client: AppClient, tokens provider: any AccessTokenProvider) async throws(AuthError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let body: Data
        do {
            body = try encoder.encode(["events": events])
        } catch {
            throw .malformedResponse("cannot encode the event batch: \(error)")
        }
        guard let url = URL(string: "/v1/events", relativeTo: client.configuration.serverURL)?.absoluteURL else {
            throw .invalidConfiguration("cannot build the events URL")
        }
        let request = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"], body: body)
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }
}
