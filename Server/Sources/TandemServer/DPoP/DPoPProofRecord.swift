import SQLKit

/// What is kept of a DPoP proof once its request is granted: its key's thumbprint and `jti`,
/// until no check could accept it any more (RFC 9449 §11.1). A proof is checked first
/// (``DPoPVerifier/check(_:method:url:accessToken:nonces:)``, no write) and recorded only when
/// its request authenticated, inside the transaction that grants it where there is one, so a
/// stranger's proofs never reach the database.
struct DPoPProofRecord: Sendable, Equatable {
    /// The thumbprint (RFC 7638) of the key that signed the proof.
    var jkt: String
    /// The proof's `jti`.
    var jti: String
    /// When the record may go: the proof's `iat` plus the maximum age it is accepted for.
    var expiresAt: Timestamp

    /// Records the proof on a connection already held (inside the caller's transaction).
    ///
    /// - Returns: `true` for a proof not seen before, `false` for a replay (nothing written).
    func insert(in database: any SQLDatabase) async throws -> Bool {
        try await database.raw("""
            INSERT INTO dpop_proofs (jkt, jti, expires_at) VALUES (\(bind: jkt), \(bind: jti), \(bind: expiresAt.milliseconds))
            ON CONFLICT (jkt, jti) DO NOTHING RETURNING jti
            """).first() != nil
    }
}
