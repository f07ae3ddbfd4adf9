/// The cockpit's list of apps and the form that creates one.
struct CockpitAppsPage: Sendable {
    /// One app in the list.
    struct Row: Sendable {
        let clientID: String
        /// The client id, percent-encoded for the page's links.
        let path: String
        let name: String
        let mode: String
        let sso: String
    }

    let username: String
    let apps: [Row]
    let csrfToken: String
    /// The sign-out form's token (``WebSignInEndpoint/signOutPurpose``).
    let signOutToken: String
    /// Why the last form was refused, if it was.
    let message: String?
}
