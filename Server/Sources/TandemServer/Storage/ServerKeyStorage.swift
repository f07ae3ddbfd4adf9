import Foundation

/// Where ``ServerKeys`` keeps the server's sealed keys.
public protocol ServerKeyStorage: Sendable {
    /// The key material stored under `id`, storing `candidate` first if there is none yet.
    ///
    /// When several processes start at once, all of them get the one value that was stored first.
    func serverKey(id: String, candidate: Data, now: Timestamp) async throws(StorageError) -> Data

    /// Replaces the material under `id` with `replacement` if it is still `expected` (one
    /// conditional update); does nothing otherwise.
    func replaceServerKey(id: String, expected: Data, with replacement: Data) async throws(StorageError)
}
