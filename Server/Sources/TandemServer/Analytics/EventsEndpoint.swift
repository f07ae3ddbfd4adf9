import Foundation
import Hummingbird
import Logging
import TandemProtocol

/// `POST /v1/events`: analytics ingestion, for a host-app bearer token with `events.write` or an
/// app's API key.
///
/// The body (`application/json`, at most the configured body size) is decoded and every event
/// checked before anything is written; the batch is then stored in one transaction. Event ids
/// already stored are skipped, so a client may resend a batch whose response it never received.
/// Answers `200 {"accepted": N, "duplicates": M}`.
struct EventsEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// Where events go.
    let storage: any AnalyticsStorage
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives one line per batch, never a credential.
    let logger: Logger

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/v1/events") { request, _ in
            await ResourceError.catching { () async throws(ResourceError) -> Response in try await respond(to: request) }
        }
    }

    private func respond(to request: Request) async throws(ResourceError) -> Response {
        let principal = try await authorizer.check(
            request, requiring: OAuthScope.eventsWrite, logger: logger)
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw ResourceError(.invalidRequest, "the body must be application/json", status: .unsupportedMediaType)
        }
        let body = try await RequestBodyReader.collect(request, limit: maxBodySize)
        let batch: EventBatch
        do {
            batch = try EventBatch(json: body.readableBytesView, clientID: principal.clientID, subject: principal.subject)
        } catch {
            throw ResourceError(.invalidRequest, error.message)
        }
        let ingestion: EventIngestion
        do {
            ingestion = try await storage.storeEvents(batch.events, now: .now())
        } catch {
            logger.error("storing analytics events failed", metadata: ["client_id": "\(principal.clientID)", "error": "\(error)"])
            throw .unavailable
        }
        logger.debug("analytics events stored", metadata: [
            "client_id": "\(principal.clientID)", "accepted": "\(ingestion.accepted)", "duplicates": "\(ingestion.duplicates)",
        ])
        return JSONResponse.make(["accepted": ingestion.accepted, "duplicates": ingestion.duplicates], noStore: true)
    }
}
