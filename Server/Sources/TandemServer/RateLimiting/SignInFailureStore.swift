import SQLKit

/// Failed sign-ins per account, shared by every server instance: what ``SignInThrottle`` counts.
///
/// ```swift
/// let failures = try await database.signInFailures.recordSignInFailure(clientID: "widget-demo", username: "ada", now: Timestamp(clock.now))
/// try await database.signInFailures.clearSignInFailures(clientID: "widget-demo", username: "ada")
/// ```
struct SignInFailureStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Usernames are stored at most this long, so random long names cannot bloat the table.
    static let maximumStoredUsername = 256

    /// The failures in a row recorded for `username` at `clientID`, or `nil` when there are none.
    func signInFailures(clientID: String, username: String) async throws(StorageError) -> SignInFailures? {
        let username = String(username.prefix(Self.maximumStoredUsername))
        return try await connector.perform("reading sign-in failures") { database in
            try await database.raw("""
                SELECT failures, last_failure_at FROM sign_in_failures
                WHERE client_id = \(bind: clientID) AND username = \(bind: username)
                """).first().map(Self.signInFailures)
        }
    }

    /// Counts one more failure in one statement (safe across instances), starting again from one
    /// when the last failure is older than ``SignInThrottle/memory``.
    ///
    /// - Returns: The record after this failure.
    ///
    /// One upsert: a new row at one, an old row one higher, or back to one when forgotten.
    @discardableResult
    func recordSignInFailure(clientID: String, username: String, now: Timestamp) async throws(StorageError) -> SignInFailures {
        let username = String(username.prefix(Self.maximumStoredUsername))
        let forgetBefore = now.milliseconds - Int64(SignInThrottle.memory.components.seconds) * 1000
        let row = try await connector.perform("recording a sign-in failure") { database in
            try await database.raw("""
                INSERT INTO sign_in_failures (client_id, username, failures, last_failure_at)
                VALUES (\(bind: clientID), \(bind: username), 1, \(bind: now.milliseconds))
                ON CONFLICT (client_id, username) DO UPDATE SET
                    failures = CASE WHEN sign_in_failures.last_failure_at < \(bind: forgetBefore) THEN 1
                                    ELSE sign_in_failures.failures + 1 END,
                    last_failure_at = excluded.last_failure_at
                RETURNING failures, last_failure_at
                """).first().map(Self.signInFailures)
        }
        guard let row else { throw .corruptRecord("sign-in failure upsert returned no row") }
        return row
    }

    /// Forgets the failures of `username` at `clientID` (after a successful sign-in).
    func clearSignInFailures(clientID: String, username: String) async throws(StorageError) {
        let username = String(username.prefix(Self.maximumStoredUsername))
        try await connector.perform("clearing sign-in failures") { database in
            try await database.raw("""
                DELETE FROM sign_in_failures WHERE client_id = \(bind: clientID) AND username = \(bind: username)
                """).run()
        }
    }

    private static func signInFailures(_ row: any SQLRow) throws -> SignInFailures {
        SignInFailures(
            count: try row.decode(column: "failures", as: Int.self),
            lastFailureAt: Timestamp(milliseconds: try row.decode(column: "last_failure_at", as: Int64.self)))
    }

    /// Deletes the failure records older than ``SignInThrottle/memory``.
    ///
    /// - Returns: How many went.
    @discardableResult
    func deleteForgottenFailures(now: Timestamp) async throws(StorageError) -> Int {
        let forgetBefore = now.milliseconds - Int64(SignInThrottle.memory.components.seconds) * 1000
        return try await connector.perform("deleting forgotten sign-in failures") { database in
            try await database.raw("""
                DELETE FROM sign_in_failures WHERE last_failure_at < \(bind: forgetBefore) RETURNING client_id
                """).all().count
        }
    }
}
