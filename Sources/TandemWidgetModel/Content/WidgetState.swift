#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a business widget's data can be trusted, and if not, why.
///
/// A widget always tells the truth about its data: it never shows "signed out" when the
/// device is merely locked, and never shows old rows as if they were current.
public enum WidgetState: Codable, Hashable, Sendable {
    /// The user is not signed in to the host app: no data is shown, only a sign-in link.
    case signedOut
    /// The data cannot be read right now (device locked, keychain not readable yet): the last
    /// content is kept, marked as such. The user is not signed out.
    case unavailable
    /// The last content, fetched `age` seconds before the entry's date.
    case stale(age: TimeInterval)
    /// Current data.
    case fresh
    /// The session needs the user: the extension's grant was refused (`invalid_grant`) and the
    /// widget shows "open the app". `reason` is a short text for the user.
    case reauthRequired(reason: String)

    /// A short lowercase name, as traces and badges show it: `fresh`, `stale`, `signed out`,
    /// `unavailable`, `reauth required`.
    public var name: String {
        switch self {
        case .signedOut: "signed out"
        case .unavailable: "unavailable"
        case .stale: "stale"
        case .fresh: "fresh"
        case .reauthRequired: "reauth required"
        }
    }
}
