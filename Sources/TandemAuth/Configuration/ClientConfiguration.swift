#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// What the auth client needs to know about its app and server, from a JSON string, an
/// onboarding link (``LinkConfigurationProvider``) or the server (``ServerConfigurationProvider``).
///
/// The JSON form (also inside a link's `config=`):
///
/// ```json
/// {"server_url": "https://tandem.example.com", "client_id": "tandem-demo",
///  "redirect_uri": "tandemdemo://oauth/callback", "url_scheme": "tandemdemo",
///  "security_mode": "oauth", "scope": "data.read events.write offline_access"}
/// ```
///
/// ```swift
/// let configuration = try ClientConfiguration(json: text)
/// ```
public struct ClientConfiguration: Codable, Sendable, Equatable {
    /// How the app authenticates to the server.
    public enum SecurityMode: String, Codable, Sendable {
        /// Users sign in: authorization code + PKCE, bearer tokens.
        case oauth
        /// The app sends its API key as `X-API-Key`.
        case apiKey
    }

    /// The server's base URL (the issuer); `https`, or `http` to a loopback address.
    public var serverURL: URL
    /// The app's OAuth client id.
    public var clientID: String
    /// Where the authorization server sends the browser back; required in OAuth mode.
    public var redirectURI: URL?
    /// The app's custom URL scheme, if it has one.
    public var urlScheme: String?
    /// How the app authenticates.
    public var securityMode: SecurityMode
    /// The scopes a sign-in requests.
    public var scopes: [String]
    /// The app's display name, when known.
    public var name: String?
    /// The vault passcode policy the server asks the app to enforce, when it said.
    public var passcodePolicy: PasscodePolicyDocument?
    /// The app's associated domain for universal SSO links (`applinks:<host>`), when the server
    /// sends its SSO links that way instead of through ``urlScheme``.
    public var ssoLinkHost: String?
    /// Whether Lock Screen and StandBy widgets hide their rows while the phone is locked, when
    /// the server said (`nil`: the SDK's default, on).
    public var lockScreenRedaction: Bool?
    /// Whether the server requires the app's grants to be bound to a key the device holds
    /// (DPoP, RFC 9449): the host then signs its token requests with its key and mints the
    /// widgets' grant bound to theirs, and an ``OAuthClient`` without a key refuses to send a
    /// token request at all (``AuthError/dpopKey(_:)``). Off unless the server says so.
    public var dpopRequired: Bool
    /// Which actions on business items need the user to confirm in the app (the step-up
    /// threshold), when the server said; `nil`: `ActionPolicyDocument.default`.
    public var actionPolicy: ActionPolicyDocument?

    /// Creates a configuration; see ``validated()`` for the checks applied to decoded ones.
    public init(
        serverURL: URL, clientID: String, redirectURI: URL? = nil, urlScheme: String? = nil,
        securityMode: SecurityMode = .oauth, scopes: [String] = ClientConfiguration.defaultScopes,
        name: String? = nil, passcodePolicy: PasscodePolicyDocument? = nil, ssoLinkHost: String? = nil,
        lockScreenRedaction: Bool? = nil, dpopRequired: Bool = false, actionPolicy: ActionPolicyDocument? = nil
    ) {
        self.serverURL = serverURL
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.urlScheme = urlScheme
        self.securityMode = securityMode
        self.scopes = scopes
        self.name = name
        self.passcodePolicy = passcodePolicy
        self.ssoLinkHost = ssoLinkHost
        self.lockScreenRedaction = lockScreenRedaction
        self.dpopRequired = dpopRequired
        self.actionPolicy = actionPolicy
    }

    /// A configuration from its JSON form.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` for text that is not JSON, misses a
    ///   required field, or names an unusable server URL or redirect URI.
    public init(json: String) throws(AuthError) {
        try self.init(jsonData: Data(json.utf8))
    }

    /// A configuration from the bytes of its JSON form; see `init(json:)`.
    public init(jsonData: Data) throws(AuthError) {
        do {
            self = try JSONDecoder().decode(ClientConfiguration.self, from: jsonData)
        } catch let error as AuthError {
            throw error
        } catch let error as DecodingError {
            throw .invalidConfiguration(Self.explain(error))
        } catch {
            throw .invalidConfiguration("not a configuration: \(error)")
        }
        self = try validated()
    }

    /// This configuration if it is usable: an `https` server URL (`http` only to a loopback
    /// address) with a plain host and no user info, a non-empty client id, and in OAuth mode a
    /// redirect URI with a scheme.
    ///
    /// - Throws: ``AuthError/invalidConfiguration(_:)`` naming the first problem.
    public func validated() throws(AuthError) -> ClientConfiguration {
        _ = try ServerAllowlist.normalized(serverURL)
        guard !clientID.isEmpty else { throw .invalidConfiguration("client_id is empty") }
        if securityMode == .oauth {
            guard let redirectURI, redirectURI.scheme?.isEmpty == false else {
                throw .invalidConfiguration("an OAuth app needs a redirect_uri with a scheme")
            }
        }
        return self
    }

    // MARK: - Coding

    enum CodingKeys: String, CodingKey {
        case serverURL = "server_url"
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case urlScheme = "url_scheme"
        case securityMode = "security_mode"
        case scope
        case name
        case passcodePolicy = "passcode_policy"
        case ssoLinkHost = "sso_link_host"
        case lockScreenRedaction = "lock_screen_redaction"
        case dpopRequired = "dpop_required"
        case actionPolicy = "action_policy"
    }

    /// Decodes the JSON form; `scope` is a space-separated string, `security_mode` defaults
    /// to `oauth` and `dpop_required` to `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try container.decode(URL.self, forKey: .serverURL)
        clientID = try container.decode(String.self, forKey: .clientID)
        redirectURI = try container.decodeIfPresent(URL.self, forKey: .redirectURI)
        urlScheme = try container.decodeIfPresent(String.self, forKey: .urlScheme)
        securityMode = try container.decodeIfPresent(SecurityMode.self, forKey: .securityMode) ?? .oauth
        let scope = try container.decodeIfPresent(String.self, forKey: .scope)
        scopes = scope.map { $0.split(separator: " ").map(String.init) } ?? ClientConfiguration.defaultScopes
        name = try container.decodeIfPresent(String.self, forKey: .name)
        passcodePolicy = try container.decodeIfPresent(PasscodePolicyDocument.self, forKey: .passcodePolicy)
        ssoLinkHost = try container.decodeIfPresent(String.self, forKey: .ssoLinkHost)
        lockScreenRedaction = try container.decodeIfPresent(Bool.self, forKey: .lockScreenRedaction)
        dpopRequired = try container.decodeIfPresent(Bool.self, forKey: .dpopRequired) ?? false
        actionPolicy = try container.decodeIfPresent(ActionPolicyDocument.self, forKey: .actionPolicy)
    }

    /// Encodes the JSON form read by `init(json:)`; `dpop_required` only when it is on, so the
    /// form of an app without DPoP is what it always was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serverURL, forKey: .serverURL)
        try container.encode(clientID, forKey: .clientID)
        try container.encodeIfPresent(redirectURI, forKey: .redirectURI)
        try container.encodeIfPresent(urlScheme, forKey: .urlScheme)
        try container.encode(securityMode, forKey: .securityMode)
        try container.encode(scopes.joined(separator: " "), forKey: .scope)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(passcodePolicy, forKey: .passcodePolicy)
        try container.encodeIfPresent(ssoLinkHost, forKey: .ssoLinkHost)
        try container.encodeIfPresent(lockScreenRedaction, forKey: .lockScreenRedaction)
        if dpopRequired { try container.encode(true, forKey: .dpopRequired) }
        try container.encodeIfPresent(actionPolicy, forKey: .actionPolicy)
    }

    /// The JSON form, keys sorted.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding URLs and strings cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The scopes requested when a configuration names none: those of a user's grant
    /// (`OAuthScope/userDefault`).
    public static let defaultScopes = [OAuthScope.dataRead, OAuthScope.dataWrite, OAuthScope.eventsWrite, OAuthScope.offlineAccess, OAuthScope.actions]

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not valid JSON" : "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is invalid"
        @unknown default: "not a configuration"
        }
    }
}
