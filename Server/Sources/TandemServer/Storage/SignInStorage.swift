/// What the sign-in page keeps beyond users and sessions: failed attempts per account (shared by
/// every server instance), the clients each browser session has confirmed, and password hashes
/// upgraded to the current cost.
///
/// ```swift
/// let failures = try await storage.recordSignInFailure(clientID: "widget-demo", username: "ada", now: Timestamp(clock.now))
/// try await storage.clearSignInFailures(clientID: "widget-demo", username: "ada")
/// ```
public protocol SignInStorage: Sendable {
    /// The failures in a row recorded for `username` at `clientID`, or `nil` when there are none.
    func signInFailures(clientID: String, username: String) async throws(StorageError) -> SignInFailures?

    /// Counts one more failure in one statement (safe across instances), starting again from one
    /// when the last failure is older than ``SignInThrottle/memory``.
    ///
    /// - Returns: The record after this failure.
    @discardableResult
    func recordSignInFailure(clientID: String, username: String, now: Timestamp) async throws(StorageError) -> SignInFailures

    /// Forgets the failures of `username` at `clientID` (after a successful sign-in).
    func clearSignInFailures(clientID: String, username: String) async throws(StorageError)

    /// Replaces a user's password hash, only if it is still `old` (so a password changed in the
    /// meantime is kept).
    ///
    /// - Returns: Whether the hash was replaced.
    func replacePasswordHash(userID: String, from old: String, to new: String) async throws(StorageError) -> Bool

    /// Records that the user of a browser session (by hash) confirmed `clientID`.
    func recordConfirmedClient(sessionHash: String, clientID: String, now: Timestamp) async throws(StorageError)

    /// The clients the user of a browser session (by hash) has confirmed.
    func confirmedClients(sessionHash: String) async throws(StorageError) -> Set<String>
}
