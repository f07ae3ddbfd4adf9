import Foundation
import Hummingbird
import Logging
import NIOCore
import TandemPlatform
import TandemBackends
import TandemProtocol

/// `GET /v1/destinations` and `GET /v1/destinations/{destination}/{entitySet}?limit=&offset=`:
/// the business data, for a bearer token with `data.read` (either audience) or an app's API key.
///
/// A page is one database query: the set's row count joined with the rows in the position
/// range. A page already rendered is kept in memory with the set's version (its content hash)
/// and served again after one primary-key lookup confirms the version. Every `200` carries a strong `ETag` over its exact body and
/// `Cache-Control: private, no-cache`; a request whose `If-None-Match` names it gets `304`.
///
/// A destination whose data lives in a customer's backend is read for the request's user by
/// ``BackendPageReader`` (looked up only once no stored set of that name exists, so the stored
/// sets' path is unchanged).
struct ResourceEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The business data.
    let storage: BusinessDataStore
    /// Receives failures, never a credential.
    let logger: Logger
    /// What time it is, for the rendered pages' lifetime.
    let clock: any WallClock
    /// Reads the destinations whose data lives in a customer's backend, per user; nil when the
    /// server calls no backend.
    let backends: BackendPageReader?
    /// Pages already rendered, reused while their entity set's version is unchanged.
    let pages = ExpiringCache<RenderedPage.Key, RenderedPage>(capacity: Self.pageCacheCapacity)

    /// The most rendered pages kept.
    static let pageCacheCapacity = 256
    /// How long a rendered page is kept.
    static let pageCacheLifetime = Duration.seconds(300)

    /// Responses may be stored by the client, but revalidated (cheaply, by `ETag`) before use.
    static let cacheControl = "private, no-cache"

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/v1/destinations") { request, _ in try await list(request) }
        router.get("/v1/destinations/:destination/:entitySet") { request, context in
            try await page(
                request, destination: PathParameter.decoded(context.parameters.get("destination")),
                entitySet: PathParameter.decoded(context.parameters.get("entitySet")))
        }
    }

    /// The path of an entity set's page, each segment percent-encoded; with `page`, its query too.
    static func path(destination: String, entitySet: String, page: PageRequest? = nil) -> String {
        APIPath.entitySet(destination: destination, entitySet: entitySet, limit: page?.limit, offset: page?.offset)
    }

    private func list(_ request: Request) async throws(HTTPError) -> Response {
        _ = try await authorizer.check(request, requiring: OAuthScope.dataRead, logger: logger)
        let destinations: [DestinationSummary]
        let fromBackends: [BackendDestination]
        do {
            destinations = try await storage.destinations()
            fromBackends = try await backends?.destinations.destinations() ?? []
        } catch {
            logger.error("listing destinations failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        var listing = DestinationListing(destinations)
        // A backend's sets are each user's: no count or time is the server's to say.
        listing.destinations += fromBackends.map { destination in
            DestinationListing.Destination(name: destination.name, title: destination.title, entitySets: destination.entitySets.map {
                DestinationListing.EntitySet(name: $0.name, destination: destination.name, count: nil, updatedAt: nil)
            }.sorted { $0.name < $1.name })
        }
        listing.destinations.sort { $0.name < $1.name }
        return EntityTag.conditionalJSON(encoding: listing, for: request, cacheControl: Self.cacheControl)
    }

    private func page(_ request: Request, destination: String, entitySet: String) async throws(HTTPError) -> Response {
        let principal = try await authorizer.check(request, requiring: OAuthScope.dataRead, logger: logger)
        let key = RenderedPage.Key(destination: destination, entitySet: entitySet, paging: try PageRequest(query: request.uri.queryParameters))
        let now = Timestamp(clock.now)
        let rendered: RenderedPage
        do {
            // A backend destination's name is known from memory (its configuration, or that the
            // name is none, kept a second): its pages never wait on a stored set's query.
            if let answer = try await backendPage(principal, destination: destination, entitySet: entitySet, paging: key.paging) {
                return EntityTag.conditionalJSON(answer.body, tag: answer.tag, for: request, cacheControl: Self.cacheControl)
            }
            if let cached = pages.value(for: key, now: now),
               try await storage.entitySetVersion(destination: destination, entitySet: entitySet) == cached.version {
                rendered = cached
            } else {
                guard let found = try await storage.entityPage(
                    destination: destination, entitySet: entitySet, offset: key.paging.offset, limit: key.paging.limit)
                else {
                    throw try await notFound(destination: destination, entitySet: entitySet)
                }
                let body = ByteBuffer(bytes: Self.body(of: found, paging: key.paging, destination: destination, entitySet: entitySet))
                rendered = RenderedPage(body: body, tag: EntityTag.of(body.readableBytesView), version: found.version)
                pages.store(rendered, for: key, validUntil: now.adding(Self.pageCacheLifetime), now: now)
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("reading an entity page failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        return EntityTag.conditionalJSON(rendered.body, tag: rendered.tag, for: request, cacheControl: Self.cacheControl)
    }

    /// The page as `EntitySetPageDocument` writes it: rows spliced in as stored (canonical
    /// JSON), never decoded; `next` the following page's path, or `null` on the last.
    static func body(of page: EntityPage, paging: PageRequest, destination: String, entitySet: String) -> [UInt8] {
        let end = paging.offset + page.rows.count
        let next = end < page.total ? path(destination: destination, entitySet: entitySet, page: PageRequest(limit: paging.limit, offset: end)) : nil
        return EntitySetPageDocument.json(rows: page.rows, limit: paging.limit, next: next, offset: paging.offset, total: page.total)
    }

    /// The page of a backend destination's set, or nil when `destination` is no backend
    /// destination; a backend destination without that set is `404`.
    private func backendPage(
        _ principal: RequestPrincipal, destination: String, entitySet: String, paging: PageRequest
    ) async throws(HTTPError) -> BackendPageAnswer? {
        guard let backends else { return nil }
        let configured: ConfiguredBackendDestination?
        do {
            configured = try await backends.destination(named: destination)
        } catch {
            logger.error("reading a backend destination failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard let configured else { return nil }
        guard let set = configured.destination.entitySets.first(where: { $0.name == entitySet }) else {
            throw HTTPError(.notFound, "destination \(destination.debugDescription) has no entity set named \(entitySet.debugDescription)")
        }
        return try await backends.page(of: configured, entitySet: set, for: principal, paging: paging)
    }

    private func notFound(destination: String, entitySet: String) async throws(HTTPError) -> HTTPError {
        do {
            guard try await storage.destinationExists(destination) else {
                return HTTPError(.notFound, "no destination named \(destination.debugDescription)")
            }
            return HTTPError(.notFound, "destination \(destination.debugDescription) has no entity set named \(entitySet.debugDescription)")
        } catch {
            throw .unavailable
        }
    }
}
