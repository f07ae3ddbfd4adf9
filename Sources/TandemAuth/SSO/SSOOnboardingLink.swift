#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// An SSO onboarding link the app was opened with (the phone page's "Next"), or the text of the
/// desktop page's QR code, checked as the app must before it uses it: the shape
/// (`TandemProtocol/SSOOnboardingPayload`), the server against the app's allowlist, the client
/// id against the app's own, and the expiry.
///
/// ```swift
/// let link = try SSOOnboardingLink(url: openedURL, clientID: "tandem-demo", allowedServers: allowlist)
/// // link.serverURL: where to read the app's configuration; link.payload.passcode: what to redeem
/// ```
public struct SSOOnboardingLink: Sendable, Equatable {
    /// What the link carries.
    public let payload: SSOOnboardingPayload
    /// The server it names, as a URL (in the allowlist).
    public let serverURL: URL

    /// Reads and checks `url`.
    ///
    /// - Parameters:
    ///   - url: The link, or the QR code's text as a URL.
    ///   - clientID: This app's own client id (never taken from a link).
    ///   - allowedServers: The servers this app was built for (never taken from a link).
    ///   - now: The current time, for the expiry.
    /// - Throws: ``SSOOnboardingError``.
    public init(url: URL, clientID: String, allowedServers: ServerAllowlist, now: Date = Date()) throws(SSOOnboardingError) {
        let payload: SSOOnboardingPayload
        do {
            payload = try SSOOnboardingPayload(link: url)
        } catch {
            throw .malformed(error)
        }
        guard let server = URL(string: payload.server) else { throw .malformed(.malformed("the server is not a URL")) }
        do {
            try allowedServers.check(server)
        } catch {
            throw .serverNotAllowed(payload.server)
        }
        guard ConstantTime.equals(payload.clientID, clientID) else { throw .otherApp(payload.clientID) }
        guard !payload.isExpired(at: now) else { throw .expired(Date(timeIntervalSince1970: Double(payload.expiresAt))) }
        self.payload = payload
        serverURL = server
    }
}
