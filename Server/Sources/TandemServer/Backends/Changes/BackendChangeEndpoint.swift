import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `POST /v1/destinations/{destination}/{entitySet}/changes`: a customer's backend says that an
/// entity set of its destination changed, for some of its users or for everyone, so that their
/// widgets are pushed (paced as every push) and read again.
///
/// The caller is the backend's own app, by its API key, granted writes to the destination
/// (`tandem admin set-writer`), as for `PUT`. The body is optional:
/// `{"users":["ada","bob"]}` names the users by the sign-in name the backend knows them by
/// (`preferred_username` in the tokens it gets); without it the change is everyone's. Names
/// the server does not know are ignored (counted in the answer, never listed). The answer is
/// `202` with `{"changes":N,"unknown_users":M}`; each change is a row of the change feed (per
/// user) and an audit line.
struct BackendChangeEndpoint: Sendable {
    /// API keys and writers.
    let apps: AppStore
    /// The users, by sign-in name.
    let accounts: AccountStore
    /// The change feed and the pushes it owes.
    let changes: ChangeFeedStore
    /// The backend destinations.
    let backends: BackendPageReader
    /// Where the audit line goes.
    let audit: AuditLog
    /// Receives failures, never a credential.
    let logger: Logger
    /// What time the change is recorded at.
    let clock: any WallClock
    /// Rung after a change: the push sender sends what it owes at once.
    let pushDoorbell: PushDoorbell

    /// The most users one report names.
    static let maximumUsers = 1000
    /// The largest body accepted.
    static let maximumBodySize = 64 * 1024

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/v1/destinations/:destination/:entitySet/changes") { request, context in
            try await report(
                request, destination: PathParameter.decoded(context.parameters.get("destination")),
                entitySet: PathParameter.decoded(context.parameters.get("entitySet")), source: context.sourceKey)
        }
    }

    private struct Body: Decodable {
        var users: [String]?
    }

    private func report(_ request: Request, destination: String, entitySet: String, source: String) async throws(HTTPError) -> Response {
        let callerID = try await caller(of: request, destination: destination)
        let configured: ConfiguredBackendDestination?
        do {
            configured = try await backends.destination(named: destination)
        } catch {
            logger.error("reading a backend destination failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard let configured, configured.destination.entitySets.contains(where: { $0.name == entitySet }) else {
            throw HTTPError(.notFound, "\(destination)/\(entitySet) is not an entity set of a backend destination")
        }
        let body = try await RequestBodyReader.collect(request, limit: Self.maximumBodySize)
        var usernames: [String]?
        if body.readableBytes > 0 {
            do {
                usernames = try JSONDecoder().decode(Body.self, from: Data(buffer: body)).users
            } catch {
                throw HTTPError(.invalidRequest, "the body is {\"users\":[\"<sign-in name>\", …]}, or empty for everyone")
            }
        }
        var userIDs: [String]?
        var unknown = 0
        if let usernames {
            guard (1...Self.maximumUsers).contains(usernames.count) else {
                throw HTTPError(.invalidRequest, "name 1 to \(Self.maximumUsers) users, or leave users out for everyone")
            }
            var ids: [String] = []
            for username in Set(usernames).sorted() {
                do {
                    if let user = try await accounts.user(named: username) { ids.append(user.id) } else { unknown += 1 }
                } catch {
                    logger.error("reading a user failed", metadata: ["error": "\(error)"])
                    throw .unavailable
                }
            }
            userIDs = ids
        }
        let now = Timestamp(clock.now)
        let recorded: [EntitySetChange]
        do {
            recorded = userIDs?.isEmpty == true
                ? []
                : try await changes.recordBackendChange(destination: destination, entitySet: entitySet, userIDs: userIDs, now: now)
            try await audit.record(
                "data.changed_at_backend", clientID: callerID, userID: nil, source: source,
                detail: "\(destination)/\(entitySet): " + (userIDs.map { "\($0.count) users" } ?? "everyone") + (unknown > 0 ? ", \(unknown) unknown" : ""),
                now: now)
        } catch {
            logger.error("recording a backend's change failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        if !recorded.isEmpty { pushDoorbell.ring() }
        return JSONResponse.raw("{\"changes\":\(recorded.count),\"unknown_users\":\(unknown)}", status: .accepted, noStore: true)
    }

    /// The app of the request's API key, when it may write `destination`.
    private func caller(of request: Request, destination: String) async throws(HTTPError) -> String {
        do {
            guard let found = try await APIKeyCaller.clientID(of: request, apps: apps) else {
                let message = "reporting a backend's change takes its app's API key (X-API-Key)"
                let presented = request.headers[RequestAuthorizer.apiKeyHeader] != nil || request.headers[.authorization] != nil
                throw HTTPError(
                    .invalidToken, message,
                    challenge: presented ? #"Bearer realm="tandem", error="invalid_token", error_description="\#(message)""# : #"Bearer realm="tandem""#)
            }
            guard try await apps.mayWrite(clientID: found, destination: destination) else {
                logger.notice("a backend change reported by an app not granted the destination", metadata: ["caller": "\(found)"])
                throw HTTPError(
                    .insufficientScope, "this app may not report changes of \(destination.debugDescription)",
                    challenge: #"Bearer realm="tandem", error="insufficient_scope", scope="\#(OAuthScope.dataWrite)""#)
            }
            return found
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("checking a backend's key failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
    }
}
