#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the desktop SSO page's QR code and the phone page's "Next" link carry: the server, the
/// app's client id and redirect URI, the one-time passcode and its expiry. Written once here,
/// so the server that makes the link and the app that reads it agree.
///
/// The link is `<app scheme>://sso?config=<base64url JSON>`, or, for an app with a link host
/// (its associated domain), the universal link `https://<link host>/sso-link/<client id>?config=…`,
/// which iOS hands only to the app whose entitlement names that domain and whose team and bundle
/// id the domain's `apple-app-site-association` file lists. A custom scheme, by contrast, can be
/// registered by any app, which then receives the passcode (SECURITY.md, 24.3):
///
/// ```swift
/// let link = payload.link(scheme: "tandem-demo")                  // the server
/// let universal = payload.universalLink(host: "links.example.com") // the server, with a link host
/// let payload = try SSOOnboardingPayload(link: url)                // the app, then its own checks:
///                                                                   // allowlist, client id, expiry
/// ```
///
/// Parsing checks only the shape (a typed ``SSOLinkError`` for anything else). Whether the
/// server is one the app trusts, the client id its own and the passcode still alive is the
/// app's decision, never the link's.
public struct SSOOnboardingPayload: Codable, Sendable, Equatable {
    /// The path of the link after the scheme (`<scheme>://sso`).
    public static let host = "sso"
    /// The query parameter holding the payload.
    public static let parameterName = "config"
    /// The first path segment of a universal SSO link, before the client id.
    public static let universalLinkPathPrefix = "/sso-link/"
    /// The largest payload accepted when reading a link (a QR code holds about 3 KB).
    public static let maximumEncodedLength = 2048

    /// The server's base URL (its issuer).
    public var server: String
    /// The app's OAuth client id.
    public var clientID: String
    /// The app's redirect URI.
    public var redirectURI: String
    /// The one-time passcode.
    public var passcode: String
    /// When the passcode stops working, in whole seconds since 1970.
    public var expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case server
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case passcode = "sso_passcode"
        case expiresAt = "expires_at"
    }

    /// A payload.
    public init(server: String, clientID: String, redirectURI: String, passcode: String, expiresAt: Int64) {
        self.server = server
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.passcode = passcode
        self.expiresAt = expiresAt
    }

    /// Reads the payload of an SSO link.
    ///
    /// The universal link's host is not checked here: iOS opens the app with it only for the
    /// app's own associated domains, and what the link carries is checked like a custom-scheme
    /// link's (the app's allowlist judges the server it names).
    ///
    /// - Throws: ``SSOLinkError`` when the link is neither `<scheme>://sso?config=…` nor
    ///   `https://<host>/sso-link/<client id>?config=…`, the parameter is missing, repeated, too
    ///   long or not base64url, the JSON is not a payload, a field is empty or the server not an
    ///   http(s) URL, or a universal link's client id is not the payload's.
    public init(link: URL) throws(SSOLinkError) {
        guard let components = URLComponents(url: link, resolvingAgainstBaseURL: false) else { throw .notAnSSOLink }
        let pathClientID = try Self.universalLinkClientID(components)
        guard pathClientID != nil || (components.scheme?.lowercased() != "https" && components.host == Self.host) else {
            throw .notAnSSOLink
        }
        let values = (components.queryItems ?? []).filter { $0.name == Self.parameterName }
        guard values.count == 1, let encoded = values[0].value, !encoded.isEmpty else { throw .missingPayload }
        guard encoded.utf8.count <= Self.maximumEncodedLength else { throw .tooLong }
        guard let json = Base64URL.decode(encoded) else { throw .notBase64URL }
        let payload: SSOOnboardingPayload
        do {
            payload = try JSONDecoder().decode(SSOOnboardingPayload.self, from: json)
        } catch {
            throw .malformed("\(error)")
        }
        guard let server = URL(string: payload.server), ["http", "https"].contains(server.scheme?.lowercased() ?? ""), server.host != nil else {
            throw .malformed("the server is not an http or https URL")
        }
        guard !payload.clientID.isEmpty, !payload.redirectURI.isEmpty, !payload.passcode.isEmpty else {
            throw .malformed("a field is empty")
        }
        if let pathClientID, pathClientID != payload.clientID {
            throw .malformed("the link's path names another app than its payload")
        }
        self = payload
    }

    /// The client id in the path of a universal SSO link (`https://<host>/sso-link/<client id>`),
    /// `nil` for a link of another scheme.
    private static func universalLinkClientID(_ components: URLComponents) throws(SSOLinkError) -> String? {
        guard components.scheme?.lowercased() == "https" else { return nil }
        // `path` is percent-decoded, as the client id was escaped into it.
        let path = components.path
        guard components.host?.isEmpty == false, path.hasPrefix(universalLinkPathPrefix), components.fragment == nil else {
            throw .notAnSSOLink
        }
        let clientID = String(path.dropFirst(universalLinkPathPrefix.count))
        guard AppIdentifierRules.isValidClientID(clientID) else { throw .notAnSSOLink }
        return clientID
    }
    /// The link for the app with URL scheme `scheme`.
    public func link(scheme: String) -> String {
        "\(scheme)://\(Self.host)?\(Self.parameterName)=\(Base64URL.encode(encodedJSON))"
    }

    /// The payload's JSON, keys sorted.
    private var encodedJSON: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The universal link for the app whose associated domain is `host` (a name
    /// ``AppIdentifierRules/isValidLinkHost(_:)`` accepts).
    public func universalLink(host: String) -> String {
        "https://\(host)\(Self.universalLinkPathPrefix)\(FormEncoding.escape(clientID))?\(Self.parameterName)=\(Base64URL.encode(encodedJSON))"
    }

    /// Whether the passcode has expired at `now`.
    public func isExpired(at now: Date = Date()) -> Bool {
        Double(expiresAt) <= now.timeIntervalSince1970
    }
}
