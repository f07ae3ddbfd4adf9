#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// Why an SSO onboarding link (or a scanned QR code) cannot onboard this app.
public enum SSOOnboardingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The link is not an SSO link, or its payload is malformed.
    case malformed(SSOLinkError)
    /// It names a server the app was not built for.
    case serverNotAllowed(String)
    /// It is for another app (its client id is not this app's).
    case otherApp(String)
    /// Its passcode expired at this date: show the desktop page again.
    case expired(Date)

    public var description: String {
        switch self {
        case .malformed(let error): "this is not a usable sign-in code: \(error)"
        case .serverNotAllowed(let server): "the code names a server this app does not trust: \(server)"
        case .otherApp(let clientID): "the code is for another app (\(clientID))"
        case .expired(let date): "the code expired at \(ISO8601Time.string(from: date, fractionalSeconds: false)); show a new one"
        }
    }
}
