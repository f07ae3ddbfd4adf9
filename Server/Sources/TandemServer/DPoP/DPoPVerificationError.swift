import TandemProtocol

/// Why ``DPoPVerifier`` refused a request's proof.
enum DPoPVerificationError: Error, Sendable, Equatable {
    /// The proof is wrong (`invalid_dpop_proof`, or `use_dpop_nonce`).
    case proof(DPoPError)
    /// The database failed: the request cannot be judged (503).
    case storage(StorageError)
}
