import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// Who acts on items and registers step-up keys: a user signed in to an app, with a token of
/// the host's audience carrying the `actions` scope. The widgets' grant (`data.read`, audience
/// `tandem-extension`) and API keys never are one.
struct ActionActor: Sendable, Equatable {
    /// The app.
    var clientID: String
    /// The user.
    var subject: String
    /// The sign-in (grant family) the token was issued from.
    var familyID: String

    /// The actor of `request`: its credential checked (`401`, `503`), then the scope, the
    /// audience and a user (`403 insufficient_scope`, through `refusals`: limited per app and
    /// address, audited as `action.refused`, sampled, with the app and, when known, the user).
    static func check(
        _ request: Request, authorizer: RequestAuthorizer, refusals: ActionRefusals, source: String, logger: Logger, clock: any WallClock
    ) async throws(HTTPError) -> ActionActor {
        let principal: RequestPrincipal
        do {
            principal = try await authorizer.authenticate(request)
        } catch {
            if case .unavailable(let storageError) = error {
                logger.error("checking a credential failed", metadata: ["error": "\(storageError)"])
            }
            throw HTTPError(error)
        }
        guard principal.scopes.contains(OAuthScope.actions), principal.audience?.contains(OAuthScope.apiAudience) == true,
              let subject = principal.subject, let familyID = principal.familyID
        else {
            let who = principal.credential == .apiKey ? "an API key" : "a token without the \(OAuthScope.actions) scope of the host's audience"
            try await refusals.refuse(
                HTTPError(AuthorizationFailure.insufficientScope(OAuthScope.actions)), clientID: principal.clientID, userID: principal.subject,
                source: source, detail: "scope: \(who) called \(request.method.rawValue) \(request.uri.path)", now: Timestamp(clock.now))
        }
        return ActionActor(clientID: principal.clientID, subject: subject, familyID: familyID)
    }
}
