import Foundation

/// Opens the technical user of a backend destination when a call to it needs one: the sealed
/// password read from ``BackendCredentialStore`` and opened with the server's sealing key, per
/// call (a primary-key read beside a network call), so a new password holds at once.
struct BackendCredentials: Sendable {
    /// Where the sealed passwords are.
    let store: BackendCredentialStore
    /// The key they are sealed under.
    let sealingKey: Data

    /// `destination`'s technical user, or nil when it has none.
    func technicalUser(of destination: String) async throws(StorageError) -> BackendTechnicalUser? {
        try await store.technicalUser(of: destination, sealingKey: sealingKey)
    }
}
