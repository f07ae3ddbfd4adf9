import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `PUT /v1/destinations/{destination}/{entitySet}`: a resource server replaces an entity set's
/// rows, as a back office does when its records change.
///
/// The caller is an API-key app granted writes to this destination (`tandem admin set-writer`),
/// with one of its API keys (``APIKeyCaller``); introspection rights write nothing, and a writer
/// of one destination cannot touch another's. Users' tokens never write: business data is shared
/// by every user, and an API key shipped inside an app is granted no writes.
///
/// The write is conditional (RFC 9110 §13.1): a set that exists is replaced only with `If-Match`
/// naming its current version (`428 precondition_required` without one, `412
/// precondition_failed` with an old one; both carry the current version in `ETag`), and a new
/// set is written without one (or with `If-None-Match: *`). The answer's `ETag` is the new
/// version. The body is `{"title": "Sales", "rows": [{…}, …]}`; each row must be a JSON object
/// and is stored as canonical JSON (keys sorted). The rows are replaced in one transaction; when
/// they differ from those stored, the set's version moves and the change feed records it, and an
/// audit line names the caller. In an actionable set every row needs its id (`400` otherwise),
/// the server sets each row's `Status` (when absent) and `ETag`, and the decision fields are the
/// server's (``ActionableRows``): a decided item stays decided.
struct EntitySetWriteEndpoint: Sendable {
    /// API keys and resource servers.
    let apps: AppStore
    /// The business data.
    let storage: BusinessDataStore
    /// Where the audit lines go.
    let audit: AuditLog
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives failures, never a credential.
    let logger: Logger
    /// What time the change is recorded at.
    let clock: any WallClock
    /// Rung after a write that changed the set: the push sender sends what it owes at once.
    var pushDoorbell: PushDoorbell?

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.put("/v1/destinations/:destination/:entitySet") { request, context in
            try await replace(
                request, destination: PathParameter.decoded(context.parameters.get("destination")),
                entitySet: PathParameter.decoded(context.parameters.get("entitySet")), source: context.sourceKey)
        }
    }

    private func replace(_ request: Request, destination: String, entitySet: String, source: String) async throws(HTTPError) -> Response {
        let callerID: String
        do {
            guard let found = try await APIKeyCaller.clientID(of: request, apps: apps) else {
                let message = "writing business data takes a resource server's API key (X-API-Key)"
                // RFC 6750 §3.1: the error code only when a credential was presented.
                let presented = request.headers[RequestAuthorizer.apiKeyHeader] != nil || request.headers[.authorization] != nil
                throw HTTPError(
                    ResourceErrorCode.invalidToken, message,
                    challenge: presented ? #"Bearer realm="tandem", error="invalid_token", error_description="\#(message)""# : #"Bearer realm="tandem""#)
            }
            for (what, name) in [("destination name", destination), ("entity set name", entitySet)] where !URLSafeName.isValid(name) {
                throw HTTPError(ResourceErrorCode.invalidRequest, URLSafeName.requirement(for: what))
            }
            guard try await apps.mayWrite(clientID: found, destination: destination) else {
                logger.notice("a write of business data by an app not granted it", metadata: ["caller": "\(found)"])
                throw HTTPError(
                    ResourceErrorCode.insufficientScope, "this app may not write the entity sets of \(destination.debugDescription)",
                    challenge: #"Bearer realm="tandem", error="insufficient_scope", scope="\#(OAuthScope.dataWrite)""#)
            }
            callerID = found
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("checking a resource server's key failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        let precondition = try Self.precondition(of: request)
        let body = try await RequestBodyReader.collectJSON(request, limit: maxBodySize)
        let (title, rows) = try Self.parse(Data(body.readableBytesView))
        let now = Timestamp(clock.now)
        let outcome: (replacement: EntitySetReplacement?, currentVersion: String?)
        do {
            outcome = try await storage.replace(
                destination: destination, title: title, name: entitySet, rows: rows, now: now, precondition: precondition)
        } catch .invalidRecord(let message) {
            throw HTTPError(ResourceErrorCode.invalidRequest, message)
        } catch {
            logger.error("replacing an entity set failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard let written = outcome.replacement else { throw Self.refusal(of: precondition, current: outcome.currentVersion) }
        if written.changed {
            pushDoorbell?.ring()
            do {
                try await audit.record(
                    "data.replaced", clientID: callerID, userID: nil, source: source,
                    detail: "\(destination)/\(entitySet): \(rows.count) rows, version \(written.version.prefix(12))", now: now)
            } catch {
                logger.error("recording a replacement in the audit log failed", metadata: ["error": "\(error)"])
                throw .unavailable
            }
        }
        var response = JSONResponse.make(written, noStore: true)
        response.headers[.eTag] = Self.etag(written.version)
        return response
    }

    /// The precondition `request` states: its `If-Match` (strong tags only; `*` names no one
    /// version), or a new set for `If-None-Match: *` or no header.
    static func precondition(of request: Request) throws(HTTPError) -> EntitySetPrecondition {
        if let ifMatch = request.headers[.ifMatch] {
            let tags = ifMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let versions = tags.compactMap { tag -> String? in
                guard tag.count > 2, tag.hasPrefix("\""), tag.hasSuffix("\"") else { return nil }
                return String(tag.dropFirst().dropLast())
            }
            guard !versions.isEmpty else {
                throw HTTPError(ResourceErrorCode.invalidRequest, "If-Match must name the set's version as a strong ETag (\"…\")")
            }
            return .versions(versions)
        }
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            guard ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" else {
                throw HTTPError(ResourceErrorCode.invalidRequest, "If-None-Match may only be * (the set must not exist yet)")
            }
            return .newSet(stated: true)
        }
        return .newSet(stated: false)
    }

    /// The answer to a write whose `precondition` failed on a set at version `current`.
    static func refusal(of precondition: EntitySetPrecondition, current: String?) -> HTTPError {
        var error: HTTPError
        if case .newSet(stated: false) = precondition, current != nil {
            error = HTTPError(
                ResourceErrorCode.preconditionRequired, "the set exists: send If-Match with its version (the ETag of this answer)")
        } else {
            error = HTTPError(
                ResourceErrorCode.preconditionFailed,
                current == nil ? "the set does not exist: write it without If-Match" : "the set changed: its version is now the ETag of this answer")
        }
        if let current { error = error.header(.eTag, etag(current)) }
        return error
    }

    /// A set's version as a strong ETag.
    static func etag(_ version: String) -> String {
        "\"\(version)\""
    }

    /// The title and the canonical rows of a body, or a 400 saying what is wrong.
    static func parse(_ body: Data) throws(HTTPError) -> (title: String, rows: [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw HTTPError(ResourceErrorCode.invalidRequest, #"the body must be a JSON object {"title": …, "rows": […]}"#)
        }
        guard let title = object["title"] as? String, !title.isEmpty, title.count <= 200 else {
            throw HTTPError(ResourceErrorCode.invalidRequest, "title must be a string of 1–200 characters")
        }
        guard let rows = object["rows"] as? [Any] else { throw HTTPError(ResourceErrorCode.invalidRequest, "rows must be an array of objects") }
        var canonical: [String] = []
        canonical.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row is [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys, .withoutEscapingSlashes])
            else { throw HTTPError(ResourceErrorCode.invalidRequest, "row \(index) is not a JSON object") }
            canonical.append(String(decoding: data, as: UTF8.self))
        }
        return (title, canonical)
    }
}
