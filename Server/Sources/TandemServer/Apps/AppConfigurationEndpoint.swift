import Foundation
import Hummingbird
import Logging
import TandemProtocol

/// `GET /v1/apps/{clientId}/configuration`: the app's onboarding configuration
/// (`AppConfigurationDocument`), public — it holds nothing secret, and a client needs it before
/// it can sign in. `Cache-Control: public, max-age=300` and a strong `ETag`; `404` for an
/// unknown client id.
struct AppConfigurationEndpoint: Sendable {
    /// The issuer URL the endpoint URLs are built under.
    let issuer: String
    /// Apps and their stored policies.
    let apps: AppStore
    /// The actionable sets, whose rules say what an app may decide.
    let actions: ActionStore
    /// The universal SSO links' domain of apps with an Apple app id and no link host of their own.
    let defaultLinkHost: String?
    /// The policy of apps that have none stored.
    let defaultPasscodePolicy: PasscodePolicyDocument
    /// Receives failures.
    let logger: Logger

    /// Shared caches may keep the document for five minutes.
    static let cacheControl = "public, max-age=300"

    /// The document's path for `clientID` (percent-encoded).
    static func path(clientID: String) -> String {
        APIPath.appConfiguration(clientID: clientID)
    }

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/v1/apps/:clientID/configuration") { request, context in
            try await respond(to: request, clientID: PathParameter.decoded(context.parameters.get("clientID")))
        }
    }

    private func respond(to request: Request, clientID: String) async throws(HTTPError) -> Response {
        let app: AppRecord?
        let policy: PasscodePolicyDocument?
        let actionableSets: [ActionableSet]
        do {
            app = try await apps.app(clientID: clientID)
            policy = app == nil ? nil : try await apps.passcodePolicy(clientID: clientID)
            actionableSets = app == nil ? [] : try await actions.actionableSets(forApp: clientID)
        } catch {
            logger.error("reading an app configuration failed", metadata: ["client_id": "\(clientID)", "error": "\(error)"])
            throw .unavailable
        }
        guard let app else { throw HTTPError(.notFound, "no app with client id \(clientID.debugDescription)") }
        let document = AppConfigurationDocument(
            app: app, issuer: issuer, passcodePolicy: policy ?? defaultPasscodePolicy, actionableSets: actionableSets,
            defaultLinkHost: defaultLinkHost)
        return EntityTag.conditionalJSON(encoding: document, for: request, cacheControl: Self.cacheControl)
    }
}
