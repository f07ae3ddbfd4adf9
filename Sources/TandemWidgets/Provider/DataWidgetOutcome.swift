#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemWidgetModel

/// What a ``DataWidgetProvider`` found for one configuration: the input of its entries.
enum DataWidgetOutcome: Sendable, Equatable {
    /// Nobody is signed in.
    case signedOut
    /// The session needs the user; `reason` is shown.
    case reauthRequired(reason: String)
    /// Secrets or records cannot be read now (device locked); the last content is kept.
    case unavailable(retryAt: Date)
    /// A definite "no" instead of rows (``DataRefusal``): shown without rows until `retryAt`.
    case refused(DataRefusal, retryAt: Date)
    /// Rows fetched at `fetchedAt`, fresh until `expiresAt`.
    case fresh(DataWidgetMemory.Shown, expiresAt: Date)
    /// No fresh rows: the last ones (if any) are shown with their age until `retryAt`, or until
    /// the host reloads the widget when `retryAt` is `nil`.
    /// `waiting` says a request or fetch is under way rather than failed; `needsApp` that only
    /// opening the app will answer it (iOS gives the host no background time).
    case stale(retryAt: Date?, waiting: Bool, needsApp: Bool = false)
}

extension DataWidgetOutcome {
    /// When the timeline of this outcome asks to be reloaded; `nil` when it waits for the host.
    var reloadDate: Date? {
        switch self {
        case .signedOut, .reauthRequired: nil
        case .unavailable(let retryAt), .refused(_, let retryAt): retryAt
        case .fresh(_, let expiresAt): expiresAt
        case .stale(let retryAt, _, _): retryAt
        }
    }

    /// Whether this is ``unavailable(retryAt:)``.
    var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
