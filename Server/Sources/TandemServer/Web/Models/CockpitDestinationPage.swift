/// One backend destination in the cockpit: what it is, its circuit and latency, its document to
/// edit, the form that fetches a set's first page as a user would get it (and that page), and
/// the form that removes it.
struct CockpitDestinationPage: Sendable {
    /// One entity set of the destination.
    struct EntitySet: Sendable {
        let name: String
        let path: String
        /// "approve, reject (apps: sales)", or "–".
        let actions: String
        /// "every 300 s", or "–".
        let polling: String
    }

    /// A page fetched as a user: the status and the body as that user's widget would get it.
    struct Trial: Sendable {
        /// "ada through sales: Approvals".
        let caption: String
        let status: Int
        let ok: Bool
        /// The body, pretty-printed.
        let body: String
    }

    let name: String
    let path: String
    let title: String
    let kind: String
    let baseURL: String
    /// "the user's token for https://erp.example.com/api", or "none (public data)".
    let authentication: String
    let entitySets: [EntitySet]
    let health: CockpitBackendHealth
    /// The destination's document, pretty-printed, keys sorted.
    let document: String
    let trial: Trial?
    /// The fetch form's last values.
    let trialUsername: String
    let trialClientID: String
    let csrfToken: String
    let message: String?
}
