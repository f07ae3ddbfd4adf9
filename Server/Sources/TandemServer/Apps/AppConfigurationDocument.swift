import TandemProtocol

/// The body of `GET /v1/apps/{clientId}/configuration`: everything a client needs to onboard
/// against this server: where to sign in and send data, how the app authenticates, and the
/// vault passcode policy to enforce.
struct AppConfigurationDocument: Encodable, Sendable {
    /// The issuer URL (the `iss` of access tokens).
    let issuer: String
    /// The app's OAuth client id.
    let clientID: String
    /// The app's name.
    let name: String
    /// `oauth` or `apiKey`.
    let securityMode: String
    /// The redirect URIs the authorization endpoint accepts.
    let redirectURIs: [String]
    /// The app's custom URL scheme, or `null`.
    let urlScheme: String?
    /// Whether cross-context SSO onboarding is enabled.
    let ssoEnabled: Bool
    /// The scope a sign-in requests by default.
    let defaultScope: String
    /// The endpoint URLs.
    let endpoints: Endpoints
    /// The vault passcode policy: the app's own, or the server's default.
    let passcodePolicy: PasscodePolicyDocument

    /// Absolute URLs of the endpoints a client uses, all under the issuer.
    struct Endpoints: Encodable, Sendable {
        /// `/oauth/authorize`: authorization code + PKCE sign-in.
        let authorization: String
        /// `/oauth/token`.
        let token: String
        /// `/oauth/revoke` (RFC 7009).
        let revocation: String
        /// `/oauth/introspect` (RFC 7662).
        let introspection: String
        /// The RFC 8414 metadata.
        let metadata: String
        /// The access tokens' public keys.
        let jwks: String
        /// `/v1/destinations`: the base of the business-data resources.
        let resources: String
        /// `/v1/events`: analytics ingestion.
        let events: String
        /// `/v1/analytics/summary`.
        let analyticsSummary: String
        /// This document's own URL.
        let configuration: String

        /// The endpoints under `issuer` for `clientID`.
        init(issuer: String, clientID: String) {
            let urls = ServerURLs(issuer: issuer)
            authorization = urls.authorization
            token = urls.token
            revocation = urls.revocation
            introspection = urls.introspection
            metadata = urls.metadata
            jwks = urls.jwks
            resources = urls.resources
            events = urls.events
            analyticsSummary = urls.analyticsSummary
            configuration = urls.base + AppConfigurationEndpoint.path(clientID: clientID)
        }

        enum CodingKeys: String, CodingKey {
            case authorization, token, revocation, introspection, metadata, jwks, resources, events, configuration
            case analyticsSummary = "analytics_summary"
        }
    }

    /// The document for `app` on the server whose issuer is `issuer`.
    init(app: AppRecord, issuer: String, passcodePolicy: PasscodePolicyDocument) {
        self.issuer = issuer
        clientID = app.clientID
        name = app.name
        securityMode = app.securityMode.rawValue
        redirectURIs = app.redirectURIs
        urlScheme = app.urlScheme
        ssoEnabled = app.ssoEnabled
        defaultScope = OAuthScope.userDefault
        endpoints = Endpoints(issuer: issuer, clientID: app.clientID)
        self.passcodePolicy = passcodePolicy
    }

    /// Encodes every field, `url_scheme` as `null` when absent, so the document's shape is fixed.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(name, forKey: .name)
        try container.encode(securityMode, forKey: .securityMode)
        try container.encode(redirectURIs, forKey: .redirectURIs)
        try container.encode(urlScheme, forKey: .urlScheme)
        try container.encode(ssoEnabled, forKey: .ssoEnabled)
        try container.encode(defaultScope, forKey: .defaultScope)
        try container.encode(endpoints, forKey: .endpoints)
        try container.encode(passcodePolicy, forKey: .passcodePolicy)
    }

    enum CodingKeys: String, CodingKey {
        case issuer, name, endpoints
        case clientID = "client_id"
        case securityMode = "security_mode"
        case redirectURIs = "redirect_uris"
        case urlScheme = "url_scheme"
        case ssoEnabled = "sso_enabled"
        case defaultScope = "default_scope"
        case passcodePolicy = "passcode_policy"
    }
}
