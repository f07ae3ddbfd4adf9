#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the desktop SSO page's QR code and the phone page's "Next" link carry: the server, the
/// app's client id and redirect URI, the one-time passcode and its expiry. Written once here,
/// so the server that makes the link and the app that reads it agree.
///
/// The link is `<app scheme>://sso?config=<base64url JSON>`:
///
/// ```swift
/// let link = payload.link(scheme: "tandem-demo")      // the server
/// let payload = try SSOOnboardingPayload(link: url)    // the app, then its own checks:
///                                                       // allowlist, client id, expiry
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
    /// - Throws: ``SSOLinkError`` when the link is not `<scheme>://sso?config=…`, the parameter
    ///   is missing, repeated, too long or not base64url, the JSON is not a payload, or a field
    ///   is empty or the server not an http(s) URL.
    public init(link: URL) throws(SSOLinkError) {
        guard let components = URLComponents(url: link, resolvingAgainstBaseURL: false), components.host == Self.host else {
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
        self = payload
    }

    /// The link for the app with URL scheme `scheme`.
    public func link(scheme: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)) ?? Data()
        return "\(scheme)://\(Self.host)?\(Self.parameterName)=\(Base64URL.encode(json))"
    }

    /// Whether the passcode has expired at `now`.
    public func isExpired(at now: Date = Date()) -> Bool {
        Double(expiresAt) <= now.timeIntervalSince1970
    }
}
