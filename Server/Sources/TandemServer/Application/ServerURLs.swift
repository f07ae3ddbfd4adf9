/// The absolute URLs of the server's endpoints, all under its issuer: one place for the paths
/// that the RFC 8414 metadata and the app configuration document both advertise.
struct ServerURLs: Sendable {
    /// The issuer without a trailing slash.
    let base: String

    /// The URLs under `issuer`.
    init(issuer: String) {
        base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }

    var authorization: String { base + "/oauth/authorize" }
    var token: String { base + "/oauth/token" }
    var revocation: String { base + "/oauth/revoke" }
    var introspection: String { base + "/oauth/introspect" }
    var metadata: String { base + "/.well-known/oauth-authorization-server" }
    var jwks: String { base + "/.well-known/jwks.json" }
    var resources: String { base + "/v1/destinations" }
    var events: String { base + "/v1/events" }
    var analyticsSummary: String { base + "/v1/analytics/summary" }
}
