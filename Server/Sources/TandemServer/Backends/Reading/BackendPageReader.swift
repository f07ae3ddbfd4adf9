import Foundation
import Logging
import NIOCore
import TandemBackends
import TandemPlatform
import TandemProtocol

/// Reads an entity set of a customer's backend for the user a request acts for: makes the
/// backend's URL, mints the user's 5-minute token for the backend's audience (principal
/// propagation), calls through the policed ``BackendHTTPClient``, maps the page to rows, and
/// keeps it per user, app, grant, configuration and page with the backend's `ETag`, to
/// revalidate with `If-None-Match` and to show stale while the backend is down.
///
/// A backend's `401` and `403` become this server's `backend_unauthorized` and
/// `backend_forbidden` (and forget the user's kept page: a user refused now sees nothing read
/// before); a backend that cannot be reached or fails gives the user's last page with
/// `"stale":true`, or `backend_unavailable` when there is none.
///
/// ```swift
/// let answer = try await reader.page(of: erp, entitySet: approvals, for: principal, paging: PageRequest(limit: 20, offset: 0))
/// ```
struct BackendPageReader: Sendable {
    /// The saved destinations.
    let destinations: BackendDestinationStore
    /// The users, for the sign-in name the backend knows them by.
    let accounts: AccountStore
    /// The one way out to a backend.
    let client: BackendHTTPClient
    /// Mints the user's token for a backend.
    let minter: BackendTokenMinter
    /// Receives one line per failed read, never a token or a row.
    let logger: Logger
    /// What time it is: tokens' `iat`, pages' freshness.
    let clock: any WallClock

    private let pages = ExpiringCache<BackendPageKey, CachedBackendPage>(capacity: Self.pageCacheCapacity)
    /// When the backend last refused a user a set (any page of it): no page of that set read
    /// before is shown to them stale until a read succeeds again.
    private let refusals = ExpiringCache<BackendPageKey, Timestamp>(capacity: Self.pageCacheCapacity)
    private let configurations = ExpiringCache<String, ConfiguredBackendDestination>(capacity: 256)
    /// Names found to be no backend destination (a stored one, or none), for as long as a
    /// configuration is kept: a stored set's read asks storage nothing more for it.
    private let otherNames = ExpiringCache<String, Bool>(capacity: 4096)
    private let usernames = ExpiringCache<String, String>(capacity: 4096)

    /// The most pages kept, over all users.
    static let pageCacheCapacity = 4096
    /// How long a page is kept to be shown stale while its backend is down.
    static let staleLifetime = Duration.seconds(24 * 3600)
    /// The longest a backend's `max-age` lets a page be served without asking again.
    static let maximumFreshness = 300
    /// How long a destination's saved configuration is reused before it is read again.
    static let configurationLifetime = Duration.seconds(1)
    /// How long a user's sign-in name is reused.
    static let usernameLifetime = Duration.seconds(60)

    /// A reader over `destinations`, calling out through `client`.
    init(
        destinations: BackendDestinationStore, accounts: AccountStore, client: BackendHTTPClient, minter: BackendTokenMinter,
        logger: Logger, clock: any WallClock
    ) {
        self.destinations = destinations
        self.accounts = accounts
        self.client = client
        self.minter = minter
        self.logger = logger
        self.clock = clock
    }

    /// The backend destination named `name` as saved now (re-read at most every second), or nil
    /// (also remembered for a second).
    func destination(named name: String) async throws(StorageError) -> ConfiguredBackendDestination? {
        let now = Timestamp(clock.now)
        if let configured = configurations.value(for: name, now: now) { return configured }
        if otherNames.value(for: name, now: now) != nil { return nil }
        guard let configured = try await destinations.configured(named: name) else {
            otherNames.store(true, for: name, validUntil: now.adding(Self.configurationLifetime), now: now)
            return nil
        }
        configurations.store(configured, for: name, validUntil: now.adding(Self.configurationLifetime), now: now)
        return configured
    }

    /// The page `paging` of `entitySet` of `configured`, for `caller`.
    ///
    /// - Throws: ``HTTPError``: `not_permitted` for a caller without a user (an API key) at a
    ///   destination read per user; `invalid_request` for a REST set past its first page;
    ///   `backend_unauthorized`, `backend_forbidden`, `backend_unavailable` or `backend_error`
    ///   as the backend answered; `temporarily_unavailable` when this server's storage failed.
    func page(
        of configured: ConfiguredBackendDestination, entitySet: BackendEntitySet, for caller: RequestPrincipal, paging: PageRequest
    ) async throws(HTTPError) -> BackendPageAnswer {
        let destination = configured.destination
        let principal = try await principal(of: caller, at: destination)
        let key = BackendPageKey(
            userID: principal?.userID, clientID: principal?.clientID ?? "", viaWidget: principal?.viaWidget ?? false,
            destination: destination.name, configuration: configured.fingerprint, entitySet: entitySet.name, paging: paging)
        let now = Timestamp(clock.now)
        var kept = pages.value(for: key, now: now)
        if let refusedAt = refusals.value(for: key.anyPage, now: now), let page = kept, page.fetchedAt <= refusedAt {
            // Read before the backend refused this user the set: never shown again.
            pages.removeValue(for: key)
            kept = nil
        }
        if let kept, kept.freshUntil > now { return BackendPageAnswer(body: kept.body, tag: kept.tag) }

        let request = try await self.request(for: destination, entitySet: entitySet, paging: paging, principal: principal, revalidating: kept, now: now)
        let response: BackendResponse
        do {
            response = try await client.send(request)
        } catch {
            let answer = Self.answer(for: error, destination: destination.name)
            guard answer.code == ResourceErrorCode.backendUnavailable.rawValue else {
                logger.warning("a backend call was refused", metadata: ["destination": "\(destination.name)", "reason": "\(error)"])
                throw answer
            }
            return try stale(kept, destination: destination, entitySet: entitySet, paging: paging, because: answer, failure: error)
        }
        let read = Timestamp(clock.now)
        let directives = BackendCacheDirectives(cacheControl: response.headers["Cache-Control"])
        let freshUntil = read.adding(.seconds(min(directives.maximumAge, Self.maximumFreshness)))
        switch response.status {
        case 200:
            let fresh = try render(response, destination: destination, entitySet: entitySet, paging: paging, kept: kept, at: read, freshUntil: freshUntil)
            keep(fresh, for: key, storable: directives.storable, now: read)
            refusals.removeValue(for: key.anyPage)
            return BackendPageAnswer(body: fresh.body, tag: fresh.tag)
        case 304 where kept != nil:
            guard let kept else { break }
            let confirmed = kept.revalidated(at: read, freshUntil: freshUntil)
            keep(confirmed, for: key, storable: directives.storable, now: read)
            refusals.removeValue(for: key.anyPage)
            return BackendPageAnswer(body: confirmed.body, tag: confirmed.tag)
        case 401:
            refused(key, at: read)
            throw HTTPError(.backendUnauthorized, "\(destination.name) did not accept the user's identity; sign in again")
        case 403:
            refused(key, at: read)
            throw HTTPError(.backendForbidden, "\(destination.name) does not let this user read \(entitySet.name)")
        case 408, 429, 500...599:
            let error = HTTPError(.backendUnavailable, "\(destination.name) answered \(response.status)")
            return try stale(kept, destination: destination, entitySet: entitySet, paging: paging, because: error)
        default:
            break
        }
        logger.warning("a backend page could not be read", metadata: [
            "destination": "\(destination.name)", "entity_set": "\(entitySet.name)", "status": "\(response.status)",
        ])
        throw HTTPError(.backendError, "\(destination.name) answered \(response.status) for \(entitySet.name)")
    }

    /// The fields of the item `itemID` as `caller`'s first page of `entitySet` shows it now (read
    /// or revalidated as any page is), or nil when the page does not show it or cannot be read:
    /// what a decision's step-up threshold is checked against.
    func row(_ itemID: String, of configured: ConfiguredBackendDestination, entitySet: BackendEntitySet, for caller: RequestPrincipal) async -> [String: String]? {
        let paging = PageRequest(limit: PageRequest.maximumLimit, offset: 0)
        guard let answer = try? await page(of: configured, entitySet: entitySet, for: caller, paging: paging),
              let page = try? JSONDecoder().decode(EntitySetPageDocument.Page<[String: String]>.self, from: Data(buffer: answer.body))
        else { return nil }
        return page.items.first { $0["id"] == itemID }
    }

    // MARK: - The call

    /// Whom calls to `destination` are made for: the caller's user, by the sign-in name the
    /// backend knows; nil for a destination of public data.
    ///
    /// - Throws: `not_permitted` for a caller without a user; `invalid_token` for a user who no
    ///   longer exists; `503` when storage fails.
    func principal(of caller: RequestPrincipal, at destination: BackendDestination) async throws(HTTPError) -> BackendPrincipal? {
        guard destination.authentication.audience != nil else { return nil }
        guard let userID = caller.subject else {
            throw HTTPError(.notPermitted, "\(destination.name) is read for a signed-in user; an API key has none")
        }
        let now = Timestamp(clock.now)
        let username: String
        if let known = usernames.value(for: userID, now: now) {
            username = known
        } else {
            let user: UserRecord?
            do {
                user = try await accounts.user(id: userID)
            } catch {
                logger.error("reading a user for a backend call failed", metadata: ["error": "\(error)"])
                throw .unavailable
            }
            guard let user else { throw HTTPError(.invalidToken, "the token's user no longer exists") }
            username = user.username
            usernames.store(username, for: userID, validUntil: now.adding(Self.usernameLifetime), now: now)
        }
        return BackendPrincipal(
            userID: userID, username: username, clientID: caller.clientID,
            viaWidget: caller.audience?.contains(OAuthScope.extensionAudience) ?? false)
    }

    private func request(
        for destination: BackendDestination, entitySet: BackendEntitySet, paging: PageRequest, principal: BackendPrincipal?,
        revalidating kept: CachedBackendPage?, now: Timestamp
    ) async throws(HTTPError) -> BackendRequest {
        let url: URL
        do {
            url = try destination.pageURL(of: entitySet, limit: paging.limit, offset: paging.offset)
        } catch {
            throw HTTPError(.invalidRequest, error.description)
        }
        var headers: BackendHeaders = ["Accept": "application/json"]
        switch destination.protocolKind {
        case .odataV4: headers.add(name: "OData-MaxVersion", value: "4.0")
        case .odataV2: headers.add(name: "MaxDataServiceVersion", value: "2.0")
        case .rest: break
        }
        for (name, value) in try await minter.headers(for: principal, at: destination, now: now, logger: logger) {
            headers.add(name: name, value: value)
        }
        if let etag = kept?.backendETag { headers.add(name: "If-None-Match", value: etag) }
        return BackendRequest(.get, url, headers: headers)
    }

    // MARK: - The answer

    private func render(
        _ response: BackendResponse, destination: BackendDestination, entitySet: BackendEntitySet, paging: PageRequest,
        kept: CachedBackendPage?, at now: Timestamp, freshUntil: Timestamp
    ) throws(HTTPError) -> CachedBackendPage {
        let page: BackendPage
        do {
            page = try BackendPageMapper.map(body: response.body, headers: response.headers.pairs, mapping: entitySet.mapping, limit: paging.limit)
        } catch {
            logger.warning("a backend page does not fit its mapping", metadata: [
                "destination": "\(destination.name)", "entity_set": "\(entitySet.name)", "error": "\(error)",
            ])
            throw HTTPError(.backendError, "\(destination.name) sent a page of \(entitySet.name) that its mapping cannot read; its operator can see why in the server's log")
        }
        let rows = page.rows.map { $0.json() }
        let end = paging.offset + rows.count
        let more: Bool =
            switch destination.protocolKind {
            case .rest: false
            case .odataV4, .odataV2: page.count.map { end < $0 } ?? (page.next != nil || rows.count == paging.limit)
            }
        let next = more && !rows.isEmpty
            ? APIPath.entitySet(destination: destination.name, entitySet: entitySet.name, limit: paging.limit, offset: end) : nil
        let body = ByteBuffer(bytes: EntitySetPageDocument.json(rows: rows, limit: paging.limit, next: next, offset: paging.offset, total: page.count))
        return CachedBackendPage(
            body: body, tag: EntityTag.of(body.readableBytesView), backendETag: page.etag, fetchedAt: now, freshUntil: freshUntil,
            rows: rows, next: next, total: page.count)
    }

    /// Forgets `key`'s page and marks every page of its set refused to its user as of `now`.
    private func refused(_ key: BackendPageKey, at now: Timestamp) {
        pages.removeValue(for: key)
        refusals.store(now, for: key.anyPage, validUntil: now.adding(Self.staleLifetime), now: now)
    }

    private func keep(_ page: CachedBackendPage, for key: BackendPageKey, storable: Bool, now: Timestamp) {
        guard storable else {
            pages.removeValue(for: key)
            return
        }
        pages.store(page, for: key, validUntil: now.adding(Self.staleLifetime), now: now)
    }

    /// The user's last page marked stale, or `error` when none is kept.
    private func stale(
        _ kept: CachedBackendPage?, destination: BackendDestination, entitySet: BackendEntitySet, paging: PageRequest, because error: HTTPError,
        failure: OutboundCallError? = nil
    ) throws(HTTPError) -> BackendPageAnswer {
        logger.warning("a backend is unavailable", metadata: [
            "destination": "\(destination.name)", "entity_set": "\(entitySet.name)", "reason": "\(error.description)",
            "call": "\(failure.map { "\($0)" } ?? "answered")",
            "served": "\(kept == nil ? "an error" : "the last page, stale")",
        ])
        guard let kept else { throw error }
        let body = ByteBuffer(bytes: EntitySetPageDocument.json(
            rows: kept.rows, limit: paging.limit, next: kept.next, offset: paging.offset, total: kept.total, staleSince: kept.fetchedAt.iso8601))
        return BackendPageAnswer(body: body, tag: EntityTag.of(body.readableBytesView), isStale: true)
    }

    /// `backend_unavailable` for what passes (no answer, a timeout, a resting circuit, a TLS or
    /// connection failure); `backend_error` for what the destination's configuration or the
    /// server's outbound policy refuses, which waiting does not mend.
    private static func answer(for error: OutboundCallError, destination: String) -> HTTPError {
        switch error {
        case .circuitOpen(let retryAfter):
            return HTTPError(.backendUnavailable, "\(destination) is resting after failures")
                .retryAfter(max(Int(retryAfter.components.seconds), 1))
        case .resolutionFailed, .timedOut, .connectionFailed, .tlsFailed, .cancelled, .shutDown:
            return HTTPError(.backendUnavailable, "\(destination) could not be reached")
        case .invalidPolicy, .invalidRequest, .invalidURL, .plainHTTPRefused, .addressRefused, .crossOriginRedirect,
            .invalidRedirect, .tooManyRedirects, .responseTooLarge:
            return HTTPError(.backendError, "\(destination) cannot be called as configured; its operator can see why in the server's log")
        }
    }
}
