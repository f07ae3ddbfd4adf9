import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `GET /v1/analytics/summary?name=&from=&to=`: the caller's app's events of one name in
/// `[from, to)`, counted by kind, family and configuration. For a bearer token with `data.read`
/// (either audience) or an app's API key; an app sees only its own events.
///
/// `name` defaults to `widget.tap`, `to` to now and `from` to seven days before `to`; `from` and
/// `to` are ISO 8601 date-times with a time zone.
struct AnalyticsSummaryEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// Where events are counted.
    let storage: AnalyticsStore
    /// Receives failures.
    let logger: Logger
    /// What time it is: `to` when the query gives none.
    let clock: any WallClock

    /// The event name counted when the query names none.
    static let defaultName = "widget.tap"
    /// The period counted when the query gives no `from`.
    static let defaultPeriod = Duration.seconds(7 * 24 * 3600)

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/v1/analytics/summary") { request, _ in try await respond(to: request) }
    }

    private func respond(to request: Request) async throws(HTTPError) -> Response {
        let principal = try await authorizer.check(request, requiring: OAuthScope.dataRead, logger: logger)
        let query = request.uri.queryParameters
        let name = try Self.single("name", in: query) ?? Self.defaultName
        guard EventBatchRules.isValidName(name) else { throw HTTPError(.invalidRequest, "name is not a valid event name") }
        let to = try Self.time("to", in: query) ?? Timestamp(clock.now)
        let from = try Self.time("from", in: query) ?? to.adding(.zero - Self.defaultPeriod)
        guard from < to else { throw HTTPError(.invalidRequest, "from must be before to") }
        let counts: [AnalyticsCount]
        do {
            counts = try await storage.eventCounts(clientID: principal.clientID, name: name, from: from, to: to)
        } catch {
            logger.error("counting analytics events failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        var response = JSONResponse.make(AnalyticsSummary(clientID: principal.clientID, name: name, from: from, to: to, counts: counts))
        response.headers[.cacheControl] = "private, no-cache"
        return response
    }

    private static func single(_ name: String, in query: Parameters) throws(HTTPError) -> String? {
        let values = query.getAll(name)
        guard values.count <= 1 else { throw HTTPError(.invalidRequest, "\(name) is repeated") }
        return values.first
    }

    private static func time(_ name: String, in query: Parameters) throws(HTTPError) -> Timestamp? {
        guard let text = try single(name, in: query) else { return nil }
        guard let time = Timestamp(iso8601: text) else {
            throw HTTPError(.invalidRequest, "\(name) must be an ISO 8601 date-time with a time zone")
        }
        return time
    }
}
