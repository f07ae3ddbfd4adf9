#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// Where a row's last action stands, as the widget shows it in place of its buttons.
///
/// A widget never pretends: a tap shows ``pending`` until the host has executed it, and only a
/// result the host wrote (sealed) shows ``done``.
public enum WidgetActionState: Codable, Hashable, Sendable {
    /// Tapped; the host is executing it.
    case pending(ItemAction)
    /// Tapped, and written for the app, which sends it when it next runs: the system did not run
    /// the tap in the app now (or the app could not finish it). The row says so plainly until the
    /// host's result, or the request's expiry.
    case waiting(ItemAction)
    /// The server recorded the decision; `status` is the item's new status (`approved`).
    case done(status: String)
    /// The item changed on the server after it was shown: nothing was done; the row shows the
    /// new state.
    case conflict
    /// Above the step-up threshold: the user confirms in the app.
    case needsApp(ItemAction)
    /// Refused (`reason` in words: tampered, replayed, signed out, refused by the server).
    case refused(reason: String)
    /// The host could not execute it in time.
    case expired

    /// A short lowercase name, as traces and the gallery show it: `pending`, `waiting`, `done`,
    /// `conflict`, `needs app`, `refused`, `expired`.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .waiting: "waiting"
        case .done: "done"
        case .conflict: "conflict"
        case .needsApp: "needs app"
        case .refused: "refused"
        case .expired: "expired"
        }
    }

    /// What the row says in place of its buttons: "Approving…", "Sent when the app next runs",
    /// "Approved", "Changed — check again", "Open the app to approve", "Refused (tampered)",
    /// "Expired — tap again".
    public var label: String {
        switch self {
        case .pending(let action): action == .approve ? "Approving…" : "Rejecting…"
        case .waiting: "Sent when the app next runs"
        case .done(let status): status.prefix(1).uppercased() + status.dropFirst()
        case .conflict: "Changed — check again"
        case .needsApp(let action): "Open the app to \(action.rawValue)"
        case .refused(let reason): "Refused (\(reason))"
        case .expired: "Expired — tap again"
        }
    }

    /// Whether the row shows its buttons again in this state (the user may act anew).
    public var offersActions: Bool {
        switch self {
        case .conflict, .expired, .refused, .needsApp: true
        case .pending, .waiting, .done: false
        }
    }
}
