import TandemBackends

/// A backend destination as it is saved now, and the fingerprint of its saved document: pages
/// read under one configuration are never served under another.
struct ConfiguredBackendDestination: Sendable {
    /// The validated destination.
    let destination: BackendDestination
    /// The SHA-256 of its stored document, in hex.
    let fingerprint: String
}
