#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The widget-facing state of the host's session, written by the host into the shared
/// container and read by extensions to decide what to show.
public struct SessionStatus: Codable, Sendable, Equatable {
    /// Where the session stands.
    public enum State: String, Codable, Sendable {
        /// Nobody is signed in: show a sign-in link.
        case signedOut
        /// The host has a working session: show data.
        case ready
        /// The session was revoked or expired for good: show "open the app to sign in again".
        case reauthRequired
    }

    /// Where the session stands.
    public var state: State
    /// When the host last wrote this status.
    public var updatedAt: Date
    /// Why, in words meant for logs (never a secret), such as `invalid_grant on refresh`.
    public var reason: String?
    /// Whether the host gets background time, as it last saw it; `nil` when it never said
    /// (an older host: treat as available).
    public var backgroundRefresh: BackgroundRefresh?

    /// Creates a status.
    public init(state: State, updatedAt: Date = Date(), reason: String? = nil, backgroundRefresh: BackgroundRefresh? = nil) {
        self.state = state
        self.updatedAt = updatedAt
        self.reason = reason
        self.backgroundRefresh = backgroundRefresh
    }
}
