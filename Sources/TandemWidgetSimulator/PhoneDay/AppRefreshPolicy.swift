/// How the host app asks iOS for background time, the two ways a ``PhoneDay`` compares.
///
/// A `BGAppRefreshTaskRequest` is good for one run: once the system has run it, no other run
/// comes unless the app submits a new request.
public enum AppRefreshPolicy: String, CaseIterable, Codable, Hashable, Sendable {
    /// Today's one-shot (before commit cd5d20c): the app submits a request only after a
    /// successful foreground flow, and its handler runs the work without submitting the next
    /// one. After the first background run the app gets none until it is opened again.
    case oneShot = "one-shot"
    /// `AppRefreshScheduler` with a repeat interval: the handler submits the next request first
    /// thing, and the app submits one when it moves to the background, besides after its
    /// foreground flow.
    case resubmitting
}
