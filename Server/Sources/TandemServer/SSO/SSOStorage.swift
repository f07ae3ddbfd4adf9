/// Where SSO passcodes are kept. Every change of state is one conditional update, so two
/// phones (or two server instances) can never both claim or both redeem one passcode.
public protocol SSOStorage: Sendable {
    /// Stores a new passcode under the SHA-256 of its secret.
    func createSSOPasscode(_ record: SSOPasscodeRecord, passcodeHash: String) async throws(StorageError)

    /// The passcode with this SHA-256, or `nil`.
    func ssoPasscode(hash: String) async throws(StorageError) -> SSOPasscodeRecord?

    /// The passcode with this public id, or `nil`.
    func ssoPasscode(id: String) async throws(StorageError) -> SSOPasscodeRecord?

    /// `issued → claimed` (or straight to `redeemed` when `redeemAtOnce`), only if it is still
    /// issued, unexpired and `clientID`'s; a claim moves the expiry to `decideBy`.
    ///
    /// - Returns: The record after the change, or `nil` when the condition did not hold.
    func claimSSOPasscode(
        hash: String, clientID: String, deviceHash: String, deviceLabel: String, redeemAtOnce: Bool, decideBy: Timestamp, now: Timestamp
    ) async throws(StorageError) -> SSOPasscodeRecord?

    /// `claimed → approved | denied`, only by the session that issued it and before its expiry.
    ///
    /// - Returns: Whether the decision was recorded.
    func decideSSOPasscode(id: String, sessionHash: String, approve: Bool, now: Timestamp) async throws(StorageError) -> Bool

    /// `approved → redeemed`, only by the device that claimed it.
    ///
    /// - Returns: Whether this call redeemed it (only one ever does).
    func redeemSSOPasscode(hash: String, deviceHash: String, now: Timestamp) async throws(StorageError) -> Bool

    /// Records a poll by the claiming device, unless its last one was less than `interval` ago.
    ///
    /// - Returns: Whether the poll counts; `false` means too soon (`slow_down`).
    func recordSSOPoll(hash: String, interval: Duration, now: Timestamp) async throws(StorageError) -> Bool
}
