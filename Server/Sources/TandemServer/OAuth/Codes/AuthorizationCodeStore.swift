import Foundation
import SQLKit

/// Authorization codes (their hashes, never the codes). Redeeming one creates its token family
/// in the same transaction, through ``TokenStore``'s statements on the same connection.
struct AuthorizationCodeStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Stores a new authorization code's record (its hash, never the code).
    func createAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError) {
        try await connector.perform("creating an authorization code") { database in
            try await database.raw("""
                INSERT INTO authorization_codes
                    (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, created_at, expires_at)
                VALUES (\(bind: code.codeHash), \(bind: code.clientID), \(bind: code.userID), \(bind: code.redirectURI),
                        \(bind: code.scope), \(bind: code.codeChallenge), \(bind: code.createdAt.milliseconds),
                        \(bind: code.expiresAt.milliseconds))
                """).run()
        }
    }

    /// Tries to redeem a code; see ``CodeRedemptionOutcome``. One conditional update decides
    /// the winner, who creates the family and its first refresh token in the same transaction,
    /// with the step-up key it enrols and the record of its DPoP proof.
    ///
    /// One transaction: the conditional update that spends the code (matching client, redirect
    /// URI and challenge, unexpired, never redeemed), then the family and its first refresh
    /// token; or, for a loser, the explanation (revoking what a reused code produced).
    func redeemAuthorizationCode(_ attempt: CodeRedemption) async throws(StorageError) -> CodeRedemptionOutcome {
        let now = attempt.now.milliseconds
        return try await connector.performTransaction("redeeming an authorization code") { database in
            let won = try await database.raw("""
                UPDATE authorization_codes SET redeemed_at = \(bind: now)
                WHERE code_hash = \(bind: attempt.codeHash) AND redeemed_at IS NULL AND expires_at > \(bind: now)
                  AND client_id = \(bind: attempt.clientID) AND redirect_uri = \(bind: attempt.redirectURI)
                  AND code_challenge = \(bind: attempt.computedChallenge)
                RETURNING user_id, scope
                """).first()
            if let won {
                let family = TokenFamily(
                    id: attempt.familyID, clientID: attempt.clientID, userID: try won.decode(column: "user_id", as: String.self),
                    scope: try won.decode(column: "scope", as: String.self), audience: attempt.audience,
                    createdAt: attempt.now, revokedAt: nil, expiresAt: attempt.grantExpiresAt, dpopJKT: attempt.dpopJKT)
                try await TokenStore.insertFamilies(
                    [FirstRefreshToken(family: family, tokenHash: attempt.refreshTokenHash, expiresAt: attempt.refreshTokenExpiresAt)],
                    in: database)
                try await database.raw("""
                    UPDATE authorization_codes SET family_id = \(bind: family.id) WHERE code_hash = \(bind: attempt.codeHash)
                    """).run()
                if let key = attempt.stepUpKey {
                    _ = try await StepUpKeyStore.insert(
                        key, clientID: family.clientID, familyID: family.id, subject: family.userID, now: attempt.now, in: database)
                }
                if let proof = attempt.dpopProof {
                    guard try await proof.insert(in: database) else { throw TransactionRollback(CodeRedemptionOutcome.proofReplayed) }
                }
                return .redeemed(family)
            }
            guard let row = try await database.raw("""
                SELECT expires_at, redeemed_at, family_id FROM authorization_codes WHERE code_hash = \(bind: attempt.codeHash)
                """).first()
            else { return .unknown }
            if try row.decode(column: "redeemed_at", as: Int64?.self) != nil {
                // RFC 6749 §4.1.2: a code used twice revokes what it issued.
                if let familyID = try row.decode(column: "family_id", as: String?.self) {
                    try await TokenStore.revokeFamily(id: familyID, now: attempt.now, in: database)
                }
                return .reused
            }
            if try row.decode(column: "expires_at", as: Int64.self) <= now { return .expired }
            return .mismatch
        }
    }

    /// Deletes expired, never-redeemed authorization codes.
    ///
    /// Redeemed codes stay until their family goes, so a late replay still revokes it.
    ///
    /// - Returns: How many went.
    @discardableResult
    func deleteExpiredCodes(now: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting expired authorization codes") { database in
            try await database.raw("""
                DELETE FROM authorization_codes WHERE expires_at <= \(bind: now.milliseconds) AND redeemed_at IS NULL
                RETURNING code_hash
                """).all().count
        }
    }
}
