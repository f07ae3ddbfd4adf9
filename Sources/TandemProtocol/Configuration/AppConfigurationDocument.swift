/// The body of ``APIPath/appConfiguration(clientID:)``: everything a client needs to onboard
/// against a server — where to sign in and send data, how the app authenticates, and the vault
/// passcode policy to enforce. The server encodes it, the SDK decodes it; this is its one
/// definition.
///
/// ```swift
/// let document = try JSONDecoder().decode(AppConfigurationDocument.self, from: body)
/// guard document.issuer == expectedIssuer else { … }
/// ```
public struct AppConfigurationDocument: Codable, Equatable, Sendable {
    /// The issuer URL (the `iss` of access tokens), as the server writes it.
    public var issuer: String
    /// The app's OAuth client id.
    public var clientID: String
    /// The app's name.
    public var name: String
    /// `oauth` or `apiKey`.
    public var securityMode: String
    /// The redirect URIs the authorization endpoint accepts.
    public var redirectURIs: [String]
    /// The app's custom URL scheme, or `nil` (encoded as `null`, so the shape is fixed).
    public var urlScheme: String?
    /// Whether cross-context SSO onboarding is enabled.
    public var ssoEnabled: Bool
    /// The app's associated domain for universal SSO links (`applinks:<host>` in its
    /// entitlements), or `nil` when its SSO links use the custom scheme. Encoded as `null`.
    public var ssoLinkHost: String?
    /// The scope a sign-in requests by default.
    public var defaultScope: String
    /// The endpoint URLs.
    public var endpoints: Endpoints
    /// The vault passcode policy: the app's own, or the server's default.
    public var passcodePolicy: PasscodePolicyDocument
    /// Whether Lock Screen and StandBy widgets (the accessory families) hide their rows' keys
    /// and values while the phone is locked. On unless the app turns it off; a document without
    /// the field (an older server) has it on.
    public var lockScreenRedaction: Bool
    /// Whether the app's tokens must be bound to a key the device holds (DPoP, RFC 9449): every
    /// token request carries a proof, and the server refuses one without it. Off unless the app
    /// turns it on; a document without the field (an older server) has it off.
    public var dpopRequired: Bool
    /// Which item actions need the user present (a step-up proof): the app's own, or
    /// ``ActionPolicyDocument/default``; a document without the field (an older server) has the
    /// default.
    public var actionPolicy: ActionPolicyDocument

    /// Absolute URLs of the endpoints a client uses, all under the issuer.
    public struct Endpoints: Codable, Hashable, Sendable {
        /// ``APIPath/authorization``: authorization code + PKCE sign-in.
        public var authorization: String
        /// ``APIPath/token``.
        public var token: String
        /// ``APIPath/revocation`` (RFC 7009).
        public var revocation: String
        /// ``APIPath/introspection`` (RFC 7662).
        public var introspection: String
        /// ``APIPath/serverMetadata``: the RFC 8414 metadata.
        public var metadata: String
        /// ``APIPath/jwks``: the access tokens' public keys.
        public var jwks: String
        /// ``APIPath/destinations``: the base of the business-data resources.
        public var resources: String
        /// ``APIPath/events``: analytics ingestion.
        public var events: String
        /// ``APIPath/analyticsSummary``.
        public var analyticsSummary: String
        /// This document's own URL.
        public var configuration: String

        /// The endpoints under `issuer` for `clientID`.
        public init(issuer: String, clientID: String) {
            authorization = APIPath.absolute(APIPath.authorization, issuer: issuer)
            token = APIPath.absolute(APIPath.token, issuer: issuer)
            revocation = APIPath.absolute(APIPath.revocation, issuer: issuer)
            introspection = APIPath.absolute(APIPath.introspection, issuer: issuer)
            metadata = APIPath.absolute(APIPath.serverMetadata, issuer: issuer)
            jwks = APIPath.absolute(APIPath.jwks, issuer: issuer)
            resources = APIPath.absolute(APIPath.destinations, issuer: issuer)
            events = APIPath.absolute(APIPath.events, issuer: issuer)
            analyticsSummary = APIPath.absolute(APIPath.analyticsSummary, issuer: issuer)
            configuration = APIPath.absolute(APIPath.appConfiguration(clientID: clientID), issuer: issuer)
        }

        enum CodingKeys: String, CodingKey {
            case authorization, token, revocation, introspection, metadata, jwks, resources, events, configuration
            case analyticsSummary = "analytics_summary"
        }
    }

    /// A document for the app `clientID` on the server `issuer`, its endpoints derived from the
    /// issuer.
    public init(
        issuer: String, clientID: String, name: String, securityMode: String, redirectURIs: [String],
        urlScheme: String?, ssoEnabled: Bool, ssoLinkHost: String? = nil, defaultScope: String = OAuthScope.userDefault,
        passcodePolicy: PasscodePolicyDocument = .default, lockScreenRedaction: Bool = true, dpopRequired: Bool = false,
        actionPolicy: ActionPolicyDocument = .default
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.name = name
        self.securityMode = securityMode
        self.redirectURIs = redirectURIs
        self.urlScheme = urlScheme
        self.ssoEnabled = ssoEnabled
        self.ssoLinkHost = ssoLinkHost
        self.defaultScope = defaultScope
        endpoints = Endpoints(issuer: issuer, clientID: clientID)
        self.passcodePolicy = passcodePolicy
        self.lockScreenRedaction = lockScreenRedaction
        self.dpopRequired = dpopRequired
        self.actionPolicy = actionPolicy
    }

    /// Decodes every field; `sso_link_host` may be absent (then `nil`), `lock_screen_redaction`
    /// too (then `true`), `dpop_required` (then `false`) and `action_policy` (then the default), as
    /// in an older server's document.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        clientID = try container.decode(String.self, forKey: .clientID)
        name = try container.decode(String.self, forKey: .name)
        securityMode = try container.decode(String.self, forKey: .securityMode)
        redirectURIs = try container.decode([String].self, forKey: .redirectURIs)
        urlScheme = try container.decodeIfPresent(String.self, forKey: .urlScheme)
        ssoEnabled = try container.decode(Bool.self, forKey: .ssoEnabled)
        ssoLinkHost = try container.decodeIfPresent(String.self, forKey: .ssoLinkHost)
        defaultScope = try container.decode(String.self, forKey: .defaultScope)
        endpoints = try container.decode(Endpoints.self, forKey: .endpoints)
        passcodePolicy = try container.decode(PasscodePolicyDocument.self, forKey: .passcodePolicy)
        lockScreenRedaction = try container.decodeIfPresent(Bool.self, forKey: .lockScreenRedaction) ?? true
        dpopRequired = try container.decodeIfPresent(Bool.self, forKey: .dpopRequired) ?? false
        actionPolicy = try container.decodeIfPresent(ActionPolicyDocument.self, forKey: .actionPolicy) ?? .default
    }

    /// Encodes every field, `url_scheme` and `sso_link_host` as `null` when absent, so the
    /// document's shape is fixed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(name, forKey: .name)
        try container.encode(securityMode, forKey: .securityMode)
        try container.encode(redirectURIs, forKey: .redirectURIs)
        try container.encode(urlScheme, forKey: .urlScheme)
        try container.encode(ssoEnabled, forKey: .ssoEnabled)
        try container.encode(ssoLinkHost, forKey: .ssoLinkHost)
        try container.encode(defaultScope, forKey: .defaultScope)
        try container.encode(endpoints, forKey: .endpoints)
        try container.encode(passcodePolicy, forKey: .passcodePolicy)
        try container.encode(lockScreenRedaction, forKey: .lockScreenRedaction)
        try container.encode(dpopRequired, forKey: .dpopRequired)
        try container.encode(actionPolicy, forKey: .actionPolicy)
    }

    enum CodingKeys: String, CodingKey {
        case issuer, name, endpoints
        case clientID = "client_id"
        case securityMode = "security_mode"
        case redirectURIs = "redirect_uris"
        case urlScheme = "url_scheme"
        case ssoEnabled = "sso_enabled"
        case ssoLinkHost = "sso_link_host"
        case defaultScope = "default_scope"
        case passcodePolicy = "passcode_policy"
        case lockScreenRedaction = "lock_screen_redaction"
        case dpopRequired = "dpop_required"
        case actionPolicy = "action_policy"
    }
}
