import TandemProtocol

/// Why ``DPoPVerifier`` refused a request's proof.
enum DPoPVerificationError: Error, Sendable, Equatable {
    /// The proof is wrong (`invalid_dpop_proof`, or `use_dpop_nonce`).
    case proof(DPoPError)
    /// The database failed: the request cannot be judged (503).
    case storage(StorageError)
}

extension DPoPVerificationError {
    /// The token endpoint's answer: `400 invalid_dpop_proof` for a proof, `503` when storage failed.
    var httpError: HTTPError {
        switch self {
        case .proof(let error): HTTPError(.invalidDPoPProof, error.description)
        case .storage: .unavailable
        }
    }
}
