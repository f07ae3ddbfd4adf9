import Foundation
import Hummingbird
import Logging

/// `GET /v1/destinations` and `GET /v1/destinations/{destination}/{entitySet}?limit=&offset=`:
/// the business data, for a bearer token with `data.read` (either audience) or an app's API key.
///
/// A page is one database query (the set's row count joined with the rows in the position
/// range). Every `200` carries a strong `ETag` over its exact body and
/// `Cache-Control: private, no-cache`; a request whose `If-None-Match` names it gets `304`.
struct ResourceEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The business data.
    let storage: any BusinessDataStorage
    /// Receives failures, never a credential.
    let logger: Logger

    /// Responses may be stored by the client, but revalidated (cheaply, by `ETag`) before use.
    static let cacheControl = "private, no-cache"

    /// Adds the routes to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/v1/destinations") { request, _ in
            await ResourceError.catching { () async throws(ResourceError) -> Response in try await list(request) }
        }
        router.get("/v1/destinations/:destination/:entitySet") { request, context in
            await ResourceError.catching { () async throws(ResourceError) -> Response in
                try await page(
                    request, destination: context.parameters.get("destination") ?? "",
                    entitySet: context.parameters.get("entitySet") ?? "")
            }
        }
    }

    /// The path of an entity set's page, each segment percent-encoded; with `page`, its query too.
    static func path(destination: String, entitySet: String, page: PageRequest? = nil) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encode = { (segment: String) in segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        let path = "/v1/destinations/\(encode(destination))/\(encode(entitySet))"
        guard let page else { return path }
        return path + "?limit=\(page.limit)&offset=\(page.offset)"
    }

    private func list(_ request: Request) async throws(ResourceError) -> Response {
        _ = try await authorizer.check(request, requiring: OAuthScope.dataRead, logger: logger)
        let destinations: [DestinationSummary]
        do {
            destinations = try await storage.destinations()
        } catch {
            logger.error("listing destinations failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        return EntityTag.conditionalJSON(encoding: DestinationList(destinations), for: request, cacheControl: Self.cacheControl)
    }

    private func page(_ request: Request, destination: String, entitySet: String) async throws(ResourceError) -> Response {
        _ = try await authorizer.check(request, requiring: OAuthScope.dataRead, logger: logger)
        let paging = try PageRequest(query: request.uri.queryParameters)
        let found: EntityPage?
        do {
            found = try await storage.entityPage(destination: destination, entitySet: entitySet, offset: paging.offset, limit: paging.limit)
        } catch {
            logger.error("reading an entity page failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard let found else { throw try await notFound(destination: destination, entitySet: entitySet) }
        return EntityTag.conditionalJSON(
            Self.body(of: found, paging: paging, destination: destination, entitySet: entitySet),
            for: request, cacheControl: Self.cacheControl)
    }

    /// `{"items":[…],"limit":L,"next":"…"|null,"offset":O,"total":N}`, keys sorted as the other
    /// documents are. Rows are spliced in as stored (canonical JSON), never decoded.
    static func body(of page: EntityPage, paging: PageRequest, destination: String, entitySet: String) -> [UInt8] {
        let end = paging.offset + page.rows.count
        let next = end < page.total
            ? "\"" + path(destination: destination, entitySet: entitySet, page: PageRequest(limit: paging.limit, offset: end)) + "\""
            : "null"
        var body = "{\"items\":["
        body.reserveCapacity(page.rows.reduce(128) { $0 + $1.utf8.count + 1 })
        for (index, row) in page.rows.enumerated() {
            if index > 0 { body += "," }
            body += row
        }
        body += "],\"limit\":\(paging.limit),\"next\":\(next),\"offset\":\(paging.offset),\"total\":\(page.total)}"
        return Array(body.utf8)
    }

    private func notFound(destination: String, entitySet: String) async throws(ResourceError) -> ResourceError {
        do {
            guard try await storage.destinationExists(destination) else {
                return ResourceError(.notFound, "no destination named \(destination.debugDescription)")
            }
            return ResourceError(.notFound, "destination \(destination.debugDescription) has no entity set named \(entitySet.debugDescription)")
        } catch {
            throw .unavailable
        }
    }
}
