/// The cockpit's list of backend destinations (the customer's services the server reads for
/// each user), each with its circuit and latency, and the form that adds or replaces one.
struct CockpitDestinationsPage: Sendable {
    /// One destination in the list.
    struct Row: Sendable {
        let name: String
        /// The name, percent-encoded for the page's links.
        let path: String
        let title: String
        /// `rest`, `odata-v4` or `odata-v2`.
        let kind: String
        let baseURL: String
        let entitySets: String
        /// The circuit and the calls since the server started (``CockpitBackendHealth``).
        let health: CockpitBackendHealth
    }

    let username: String
    let destinations: [Row]
    let csrfToken: String
    /// The document the form shows: empty, or the one just refused (to correct it).
    let document: String
    /// What the last form did, or why it was refused.
    let message: String?
}

/// A destination's circuit breaker and call statistics as the cockpit shows them.
struct CockpitBackendHealth: Sendable {
    /// "closed", "open (retry in 12 s)", "half open", or "not called yet".
    let circuit: String
    /// Whether the circuit is open or half open (the page marks it).
    let troubled: Bool
    /// "12 ok · 1 failed · 0 refused by the circuit".
    let calls: String
    /// "p50 4 ms · p95 9 ms", or "–" without calls.
    let latency: String
}
