#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A sign-in started by ``OAuthClient/startAuthorization(scopes:)``: the URL to open in the
/// browser, and the secrets needed to check and finish it. Keep it in memory until the redirect
/// comes back; its description never shows the state or the verifier.
public struct PendingAuthorization: Sendable, Equatable, CustomStringConvertible {
    /// The authorization URL to open in the browser.
    public let url: URL
    /// The random `state` the redirect must carry back.
    public let state: String
    /// The PKCE verifier sent to the token endpoint with the code.
    public let verifier: PKCEVerifier
    /// The redirect URI the server will send the browser back to.
    public let redirectURI: URL

    /// Creates a pending authorization (``OAuthClient`` makes them; tests may too).
    public init(url: URL, state: String, verifier: PKCEVerifier, redirectURI: URL) {
        self.url = url
        self.state = state
        self.verifier = verifier
        self.redirectURI = redirectURI
    }

    /// The URL only; never the state or the verifier.
    public var description: String { "PendingAuthorization(url: \(url.host ?? "?"), state: <redacted>)" }
}
