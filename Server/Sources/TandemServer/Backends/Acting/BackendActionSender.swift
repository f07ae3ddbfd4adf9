import Foundation
import Logging
import TandemBackends
import TandemPlatform
import TandemProtocol

/// Carries out an item action on a customer's backend for the user: the action's call (REST,
/// OData V4 bound action, OData V2 function import) with the user's 5-minute token, the item's
/// ETag as `If-Match` and the request's `Idempotency-Key`, through the policed outbound client;
/// and turns the backend's answer into the answer the host gets — kept under the key when it
/// depends on the item (`200`, `409`, `412`), thrown when it does not.
///
/// ```swift
/// let answer = try await sender.send(.approve, item: "A-1001", of: approvals, at: erp, for: principal,
///     ifMatch: "\"3\"", idempotencyKey: key, fingerprint: fingerprint, now: now)
/// ```
struct BackendActionSender: Sendable {
    /// The one way out to a backend.
    let client: BackendHTTPClient
    /// Mints the user's token for the backend.
    let minter: BackendTokenMinter
    /// Receives one line per failed call, never a token.
    let logger: Logger

    /// The answer to `action` on `itemID`, as the backend gave it.
    ///
    /// - Returns: `200` with the decision (``ItemActionResultDocument``, the `ETag` the backend
    ///   sent), `412` with the item's current `ETag` when `If-Match` no longer names it, `409`
    ///   when it was already decided.
    /// - Throws: ``HTTPError``: `backend_unauthorized`, `backend_forbidden`, `not_found`,
    ///   `backend_unavailable` (nothing kept: the same key may be sent again) or `backend_error`.
    func send(
        _ action: ItemAction, item itemID: String, of entitySet: BackendEntitySet, at destination: BackendDestination,
        for principal: BackendPrincipal?, ifMatch: String, idempotencyKey: String, fingerprint: String, now: Timestamp
    ) async throws(HTTPError) -> StoredActionAnswer {
        let call: (method: BackendHTTPMethod, url: URL)
        do {
            call = try destination.actionCall(action, on: itemID, of: entitySet)
        } catch {
            throw HTTPError(.notFound, error.description)
        }
        var headers: BackendHeaders = [
            "Accept": "application/json", "If-Match": ifMatch, ItemActionRules.idempotencyKeyHeader: idempotencyKey,
        ]
        for (name, value) in try await minter.headers(for: principal, at: destination, now: now, logger: logger) {
            headers.add(name: name, value: value)
        }
        var body: [UInt8]?
        if destination.protocolKind == .odataV4 {
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "OData-MaxVersion", value: "4.0")
            body = Array("{}".utf8)
        }
        let response: BackendResponse
        do {
            response = try await client.send(BackendRequest(call.method, call.url, headers: headers, body: body))
        } catch {
            logger.warning("a backend action call failed", metadata: ["destination": "\(destination.name)", "reason": "\(error)"])
            throw HTTPError(.backendUnavailable, "\(destination.name) could not be reached; send the same request again")
        }
        let etag = response.headers["ETag"]
        switch response.status {
        case 200...299:
            let document = ItemActionResultDocument(
                ItemAddress(destination: destination.name, entitySet: entitySet.name, item: itemID), action: action, status: action.decidedStatus,
                etag: etag ?? "", decidedAt: ISO8601Time.string(from: now.date))
            return StoredActionAnswer(fingerprint: fingerprint, statusCode: 200, body: try Self.json(document), etag: etag)
        case 412:
            var error = HTTPError(.preconditionFailed, "the item changed since it was shown" + (etag.map { ": its ETag is now \($0)" } ?? ""))
            if let etag { error = error.member("current_etag", etag) }
            return StoredActionAnswer(fingerprint: fingerprint, statusCode: 412, body: error.bodyJSON, etag: etag)
        case 409:
            var error = HTTPError(.alreadyDecided, "\(destination.name) says the item was already decided")
            if let etag { error = error.member("current_etag", etag) }
            return StoredActionAnswer(fingerprint: fingerprint, statusCode: 409, body: error.bodyJSON, etag: etag)
        case 401:
            throw HTTPError(.backendUnauthorized, "\(destination.name) did not accept the user's identity; sign in again")
        case 403:
            throw HTTPError(.backendForbidden, "\(destination.name) does not let this user decide this item")
        case 404:
            throw HTTPError(.notFound, "\(destination.name) has no item \(itemID.debugDescription) this user may decide")
        case 408, 429, 500...599:
            throw HTTPError(.backendUnavailable, "\(destination.name) answered \(response.status); send the same request again")
        default:
            logger.warning("a backend answered an action unexpectedly", metadata: [
                "destination": "\(destination.name)", "entity_set": "\(entitySet.name)", "status": "\(response.status)",
            ])
            throw HTTPError(.backendError, "\(destination.name) answered \(response.status) for the action")
        }
    }

    private static func json(_ document: ItemActionResultDocument) throws(HTTPError) -> String {
        do {
            return try ActionStore.json(document)
        } catch {
            throw .unavailable
        }
    }
}
