import Foundation
import SQLKit

// Authorization codes and browser sessions: the statements behind the authorization endpoint
// and the `authorization_code` grant.
extension SQLServerStorage {
    /// Inserts a code's record.
    public func createAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError) {
        try await perform("creating an authorization code") { database in
            try await database.raw("""
                INSERT INTO authorization_codes
                    (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, created_at, expires_at)
                VALUES (\(bind: code.codeHash), \(bind: code.clientID), \(bind: code.userID), \(bind: code.redirectURI),
                        \(bind: code.scope), \(bind: code.codeChallenge), \(bind: code.createdAt.milliseconds),
                        \(bind: code.expiresAt.milliseconds))
                """).run()
        }
    }

    /// One transaction: the conditional update that spends the code (matching client, redirect
    /// URI and challenge, unexpired, never redeemed), then the family and its first refresh
    /// token; or, for a loser, the explanation (revoking what a reused code produced).
    public func redeemAuthorizationCode(_ attempt: CodeRedemption) async throws(StorageError) -> CodeRedemptionOutcome {
        let now = attempt.now.milliseconds
        return try await performTransaction("redeeming an authorization code") { database in
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
                    createdAt: attempt.now, revokedAt: nil, expiresAt: attempt.grantExpiresAt)
                try await Self.insertFamilies(
                    [FirstRefreshToken(family: family, tokenHash: attempt.refreshTokenHash, expiresAt: attempt.refreshTokenExpiresAt)],
                    in: database)
                try await database.raw("""
                    UPDATE authorization_codes SET family_id = \(bind: family.id) WHERE code_hash = \(bind: attempt.codeHash)
                    """).run()
                return .redeemed(family)
            }
            guard let row = try await database.raw("""
                SELECT expires_at, redeemed_at, family_id FROM authorization_codes WHERE code_hash = \(bind: attempt.codeHash)
                """).first()
            else { return .unknown }
            if try row.decode(column: "redeemed_at", as: Int64?.self) != nil {
                // RFC 6749 §4.1.2: a code used twice revokes what it issued.
                if let familyID = try row.decode(column: "family_id", as: String?.self) {
                    try await Self.revokeFamily(id: familyID, now: attempt.now, in: database)
                }
                return .reused
            }
            if try row.decode(column: "expires_at", as: Int64.self) <= now { return .expired }
            return .mismatch
        }
    }

    /// Inserts a browser session's hash.
    public func createBrowserSession(hash: String, userID: String, now: Timestamp, expiresAt: Timestamp) async throws(StorageError) {
        try await perform("creating a browser session") { database in
            try await database.raw("""
                INSERT INTO browser_sessions (session_hash, user_id, created_at, expires_at)
                VALUES (\(bind: hash), \(bind: userID), \(bind: now.milliseconds), \(bind: expiresAt.milliseconds))
                """).run()
        }
    }

    /// The user of a live browser session, or `nil`.
    public func browserSessionUser(hash: String, now: Timestamp) async throws(StorageError) -> String? {
        try await perform("reading a browser session") { database in
            try await database.raw("""
                SELECT user_id FROM browser_sessions WHERE session_hash = \(bind: hash) AND expires_at > \(bind: now.milliseconds)
                """).first()?.decode(column: "user_id", as: String.self)
        }
    }

    /// Deletes expired browser sessions (with their confirmed clients), expired, never-redeemed
    /// authorization codes, and sign-in failures older than ``SignInThrottle/memory``.
    ///
    /// Redeemed codes stay until their family goes, so a late replay still revokes it.
    @discardableResult
    public func deleteExpiredSignInRecords(now: Timestamp) async throws(StorageError) -> Int {
        let forgetBefore = now.milliseconds - Int64(SignInThrottle.memory.components.seconds) * 1000
        return try await perform("deleting expired sign-in records") { database in
            try await database.raw("""
                DELETE FROM browser_session_clients WHERE session_hash IN
                    (SELECT session_hash FROM browser_sessions WHERE expires_at <= \(bind: now.milliseconds))
                """).run()
            let failures = try await database.raw("""
                DELETE FROM sign_in_failures WHERE last_failure_at < \(bind: forgetBefore) RETURNING client_id
                """).all().count
            let sessions = try await database.raw("""
                DELETE FROM browser_sessions WHERE expires_at <= \(bind: now.milliseconds) RETURNING session_hash
                """).all().count
            let codes = try await database.raw("""
                DELETE FROM authorization_codes WHERE expires_at <= \(bind: now.milliseconds) AND redeemed_at IS NULL
                RETURNING code_hash
                """).all().count
            return sessions + codes + failures
        }
    }

    /// Looks a user up by id.
    public func user(id: String) async throws(StorageError) -> UserRecord? {
        try await perform("reading a user") { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users WHERE id = \(bind: id)")
                .first()
                .map(Self.userRecord)
        }
    }
}
