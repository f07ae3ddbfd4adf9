/// Whom a call to a customer's backend is made for: the signed-in user, through which app, and
/// whether the widgets' grant asked (the extension acting for the user) rather than the app.
///
/// ```swift
/// let principal = BackendPrincipal(userID: user.id, username: user.username, clientID: family.clientID, viaWidget: family.parentID != nil)
/// ```
struct BackendPrincipal: Sendable, Hashable {
    /// The user's id at Tandem: the token's `sub`.
    var userID: String
    /// The user's sign-in name: the token's `preferred_username`, by which most backends know
    /// their users.
    var username: String
    /// The app's client id: the token's `client_id` and `azp`.
    var clientID: String
    /// The widgets' extension grant made the request: the token names the widgets as the
    /// acting party (`act`, RFC 8693 §4.1).
    var viaWidget: Bool
}
