#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The paths of the server's resources that the SDK calls, built in one place for both sides:
/// the server routes and links them, the client requests them. Every segment is percent-encoded
/// (``FormEncoding/escape(_:)``).
public enum APIPath {
    /// `GET|POST /oauth/authorize`: the sign-in page and authorization codes (with PKCE).
    public static let authorization = "/oauth/authorize"

    /// `POST /oauth/token`: every grant.
    public static let token = "/oauth/token"

    /// `POST /oauth/revoke`: RFC 7009 revocation.
    public static let revocation = "/oauth/revoke"

    /// `POST /oauth/introspect`: RFC 7662 introspection.
    public static let introspection = "/oauth/introspect"

    /// `GET /.well-known/oauth-authorization-server`: the RFC 8414 metadata
    /// (``AuthorizationServerMetadata``), at the well-known path of RFC 8414 §3.
    public static let serverMetadata = "/.well-known/oauth-authorization-server"

    /// `GET /.well-known/jwks.json`: the access tokens' public keys.
    public static let jwks = "/.well-known/jwks.json"

    /// `GET /v1/apps/{clientID}/configuration`: an app's public configuration document
    /// (``AppConfigurationDocument``).
    public static func appConfiguration(clientID: String) -> String {
        "/v1/apps/\(FormEncoding.escape(clientID))/configuration"
    }

    /// `GET /v1/destinations`: the destinations listing (``DestinationListing``).
    public static let destinations = "/v1/destinations"

    /// `GET /v1/destinations/{destination}/{entitySet}`: one entity set's rows, with `limit`
    /// (and `offset`) when given.
    public static func entitySet(destination: String, entitySet: String, limit: Int? = nil, offset: Int? = nil) -> String {
        let path = "\(destinations)/\(FormEncoding.escape(destination))/\(FormEncoding.escape(entitySet))"
        let query = FormEncoding.query([("limit", limit.map(String.init)), ("offset", offset.map(String.init))])
        return query.isEmpty ? path : path + "?" + query
    }

    /// `POST /v1/destinations/{destination}/{entitySet}/{item}/actions/{action}`: a decision on
    /// an item of an actionable entity set, with `If-Match` and an idempotency key
    /// (``ItemActionRules``); answered with an ``ItemActionResultDocument``.
    public static func itemAction(_ address: ItemAddress, action: ItemAction) -> String {
        "\(destinations)/\(FormEncoding.escape(address.destination))/\(FormEncoding.escape(address.entitySet))/"
            + "\(FormEncoding.escape(address.item))/actions/\(FormEncoding.escape(action.rawValue))"
    }

    /// `PUT /v1/step-up-key`: the host registers the public half of its step-up key
    /// (``StepUpKeyDocument``) for its sign-in; ``StepUpProof``s must be signed by it.
    public static let stepUpKey = "/v1/step-up-key"

    /// `POST /v1/events`: an analytics batch (``EventBatchRules``).
    public static let events = "/v1/events"

    /// `/v1/push/devices`: the push registry's devices.
    public static let pushDevices = "/v1/push/devices"

    /// `PUT|DELETE /v1/push/devices/{deviceId}`: a device's push tokens
    /// (``PushDeviceTokensDocument``).
    public static func pushDevice(id: String) -> String {
        "\(pushDevices)/\(FormEncoding.escape(id))"
    }

    /// `GET /v1/analytics/summary`: counts of the app's events.
    public static let analyticsSummary = "/v1/analytics/summary"

    /// `path` under `issuer` (a trailing slash of the issuer dropped): the absolute URLs the
    /// server's documents list, as strings, because the issuer is compared character for
    /// character.
    public static func absolute(_ path: String, issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + path
    }
}
