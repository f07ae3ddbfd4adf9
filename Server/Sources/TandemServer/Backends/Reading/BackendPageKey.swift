/// Which cached backend page: whose it is, through which app and grant, which destination (as
/// configured, by the fingerprint of its document), which set and which page.
///
/// Every part that could change what a backend answers is in the key, so nothing fetched for
/// one user, app or grant is ever served to another, and a destination edited by an operator
/// never serves pages read under its old configuration.
struct BackendPageKey: Hashable, Sendable {
    /// The user the page was read for (the token's `sub`); nil for a destination of public data
    /// (`authentication` `none`), whose pages are the same for everyone.
    let userID: String?
    /// The app the user's token was issued to; empty for public data.
    let clientID: String
    /// Whether the widgets' grant asked (the backend's token then names the widgets as acting).
    let viaWidget: Bool
    /// The destination's name.
    let destination: String
    /// The SHA-256 of the destination's stored document.
    let configuration: String
    /// The entity set's name.
    let entitySet: String
    /// The paging parameters.
    let paging: PageRequest

    /// The same user, app, grant, configuration and set, standing for every page of it.
    var anyPage: BackendPageKey {
        BackendPageKey(
            userID: userID, clientID: clientID, viaWidget: viaWidget, destination: destination, configuration: configuration,
            entitySet: entitySet, paging: PageRequest(limit: 0, offset: 0))
    }
}
