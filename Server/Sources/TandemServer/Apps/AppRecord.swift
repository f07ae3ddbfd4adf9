/// A client application registered with the server and its security configuration.
public struct AppRecord: Sendable, Hashable {
    /// The OAuth client id; unique.
    public var clientID: String
    /// A human-readable name.
    public var name: String
    /// The redirect URIs the authorization endpoint accepts, matched exactly.
    public var redirectURIs: [String]
    /// The app's custom URL scheme (for deep links and SSO onboarding), if any.
    public var urlScheme: String?
    /// How the app authenticates: API key or OAuth 2.
    public var securityMode: SecurityMode
    /// Whether cross-context SSO onboarding (QR code on a desktop page) is enabled.
    public var ssoEnabled: Bool
    /// Whether the desktop page must approve a phone's SSO redemption before its tokens are
    /// released (on by default).
    public var ssoConfirmation: Bool
    /// The app's associated domain for universal SSO links, if any (see ``UniversalLinks``).
    public var ssoLinkHost: String?
    /// The app's Apple application identifier (`TEAMID.bundle`), which the server's
    /// `apple-app-site-association` lists for ``ssoLinkHost``.
    public var appleAppID: String?
    /// Whether the app's Lock Screen and StandBy widgets hide their rows while the phone is
    /// locked (on by default).
    public var lockScreenRedaction: Bool
    /// Whether the app's token requests must carry a DPoP proof (RFC 9449), so every grant it
    /// gets is bound to a key the device holds (off by default).
    public var dpopRequired: Bool
    /// When the app was registered.
    public var createdAt: Timestamp

    /// The universal links of the app's SSO onboarding: whenever it has an Apple app id, on its
    /// own link host or else on the server's (`defaultHost`, ``TandemServerConfiguration/ssoLinkHost``);
    /// `nil` — the custom scheme, which any app can register — only for an app without an Apple
    /// app id, or when neither host is set.
    public func universalLinks(defaultHost: String?) -> UniversalLinks? {
        guard let appleAppID, let host = ssoLinkHost ?? defaultHost else { return nil }
        return UniversalLinks(host: host, appleAppID: appleAppID)
    }

    /// Where an app's universal SSO links point and which app iOS opens with them.
    public struct UniversalLinks: Sendable, Hashable {
        /// The associated domain.
        public var host: String
        /// `TEAMID.bundle`.
        public var appleAppID: String
    }

    /// Creates an app record.
    public init(
        clientID: String, name: String, redirectURIs: [String], urlScheme: String?,
        securityMode: SecurityMode, ssoEnabled: Bool, ssoConfirmation: Bool = true, lockScreenRedaction: Bool = true,
        dpopRequired: Bool = false, ssoLinkHost: String? = nil, appleAppID: String? = nil, createdAt: Timestamp
    ) {
        self.clientID = clientID
        self.name = name
        self.redirectURIs = redirectURIs
        self.urlScheme = urlScheme
        self.securityMode = securityMode
        self.ssoEnabled = ssoEnabled
        self.ssoConfirmation = ssoConfirmation
        self.ssoLinkHost = ssoLinkHost
        self.appleAppID = appleAppID
        self.lockScreenRedaction = lockScreenRedaction
        self.dpopRequired = dpopRequired
        self.createdAt = createdAt
    }
}
