/// The one-click confirmation shown when a browser session already exists: "Continue as
/// ‹user›" (a POST carrying the session- and request-bound token) or "Use another account"
/// (the same request again with `prompt=login`).
struct ContinuePage: Sendable {
    let appName: String
    let username: String
    let hidden: [HiddenField]
    let confirmToken: String
}
