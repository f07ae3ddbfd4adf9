/// How a widget's action request ended, as the host writes it back for the widget to show.
///
/// ```swift
/// switch result.outcome {
/// case .done(let status): "approved"           // the server recorded the decision
/// case .conflict: "changed since you saw it"   // If-Match failed: the widget shows the new state
/// case .needsApp: "open the app to approve"    // above the step-up threshold
/// case .refused(let reason), .expired: …
/// }
/// ```
public enum ActionOutcome: Codable, Hashable, Sendable {
    /// The server executed it; `status` is the item's new status (`approved`, `rejected`).
    case done(status: String)
    /// The item changed on the server after the widget showed it: nothing was done.
    case conflict
    /// The amount needs the user to confirm in the app (passcode or Face ID): nothing was done
    /// in the background.
    case needsApp
    /// Not executed, for `reason`.
    case refused(ActionRefusal)
    /// Not executed in time: the request expired before the host could.
    case expired

    /// A short lowercase name, as traces, analytics and badges show it: `done`, `conflict`,
    /// `needs app`, `refused`, `expired`.
    public var name: String {
        switch self {
        case .done: "done"
        case .conflict: "conflict"
        case .needsApp: "needs app"
        case .refused: "refused"
        case .expired: "expired"
        }
    }
}

/// Why a host refused an action request.
public enum ActionRefusal: String, Codable, Hashable, Sendable {
    /// The request file did not open or decode: modified, or not written by a holder of the key.
    case tampered
    /// The host already executed a request with this nonce: the file was put back.
    case replayed
    /// Its share does not open the vault (rotated or revoked extension access).
    case wrongShare = "wrong share"
    /// Nobody is signed in to the app.
    case signedOut = "signed out"
    /// The server refused it (no such item, not allowed, a malformed request).
    case server
}
