/// A signed-in user's own page (`/account`): their sign-ins in each app, ended one by one or all
/// at once, their step-up keys, the recent security events about them, and the sign-out.
struct AccountPage: Sendable {
    /// One live sign-in.
    struct SignIn: Sendable {
        /// The grant's id, for the form that ends it.
        let familyID: String
        let appName: String
        let clientID: String
        /// When the user signed in (ISO 8601, UTC).
        let signedInAt: String
        /// Whether its tokens are bound to a key on the device (DPoP).
        let keyBound: Bool
        /// When its step-up key was enrolled (ISO 8601), or `nil` when it has none.
        let stepUpKeyEnrolledAt: String?
    }

    /// One line of the audit log about the user.
    struct Event: Sendable {
        let at: String
        let kind: String
        let app: String
        let detail: String
    }

    let username: String
    let signIns: [SignIn]
    /// Whether there is any (the template's condition: templates see stored properties only).
    let hasSignIns: Bool
    let events: [Event]
    /// Whether the user is an administrator (the page links the cockpit).
    let isAdmin: Bool
    /// The token of this page's forms (purpose ``AccountEndpoint/tokenPurpose``).
    let csrfToken: String
    /// The sign-out form's token (``WebSignInEndpoint/signOutPurpose``).
    let signOutToken: String
    /// What the last form did, if anything.
    let message: String?
}
