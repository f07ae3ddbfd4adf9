import Foundation
import SQLKit

/// The DPoP proofs seen within their window (RFC 9449 §11.1): one conditional insert per proof
/// decides whether it is new, so a proof replayed to any instance sharing the database is
/// refused, whichever instance saw it first.
struct DPoPProofStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Records `proof` on its own (outside any other transaction).
    ///
    /// - Returns: `true` for a proof not seen before, `false` for a replay.
    func record(_ proof: DPoPProofRecord) async throws(StorageError) -> Bool {
        try await connector.perform("recording a DPoP proof") { database in try await proof.insert(in: database) }
    }

    /// Deletes the proofs whose window ended before `now`; returns how many.
    func deleteExpiredProofs(now: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting expired DPoP proofs") { database in
            try await database.raw("DELETE FROM dpop_proofs WHERE expires_at <= \(bind: now.milliseconds) RETURNING jti").all().count
        }
    }
}
