import Foundation
import SQLKit

/// Where SSO passcodes are kept. Every change of state is one conditional
/// `UPDATE … RETURNING`, so two phones (or two server instances) can never both claim or both
/// redeem one passcode.
struct SSOStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    static let ssoColumns = """
        id, client_id, user_id, session_hash, state, created_at, expires_at, device_hash, device_label,
        claimed_at, decided_at, last_poll_at, redeemed_at, issue_source, claim_source, claim_user_agent, family_id, reused_at
        """

    /// Stores a new passcode under the SHA-256 of its secret.
    func createSSOPasscode(_ record: SSOPasscodeRecord, passcodeHash: String) async throws(StorageError) {
        try await connector.perform("creating an SSO passcode") { database in
            try await database.raw("""
                INSERT INTO sso_passcodes (id, passcode_hash, client_id, user_id, session_hash, state, created_at, expires_at, issue_source)
                VALUES (\(bind: record.id), \(bind: passcodeHash), \(bind: record.clientID), \(bind: record.userID),
                        \(bind: record.sessionHash), 'issued', \(bind: record.createdAt.milliseconds), \(bind: record.expiresAt.milliseconds),
                        \(bind: record.issueSource))
                """).run()
        }
    }

    /// The passcode with this SHA-256, or `nil`.
    func ssoPasscode(hash: String) async throws(StorageError) -> SSOPasscodeRecord? {
        try await connector.perform("reading an SSO passcode") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.ssoColumns) FROM sso_passcodes WHERE passcode_hash = \(bind: hash)")
                .first().map(Self.ssoPasscodeRecord)
        }
    }

    /// The passcode with this public id, or `nil`.
    func ssoPasscode(id: String) async throws(StorageError) -> SSOPasscodeRecord? {
        try await connector.perform("reading an SSO passcode") { database in
            try await database.raw("SELECT \(unsafeRaw: Self.ssoColumns) FROM sso_passcodes WHERE id = \(bind: id)")
                .first().map(Self.ssoPasscodeRecord)
        }
    }

    /// `issued → claimed` (or straight to `redeemed` when `redeemAtOnce`), only if it is still
    /// issued, unexpired and `clientID`'s; a claim moves the expiry to `decideBy` and records
    /// what the server observed of the claiming request.
    ///
    /// - Returns: The record after the change, or `nil` when the condition did not hold.
    func claimSSOPasscode(
        hash: String, clientID: String, deviceHash: String, deviceLabel: String, observed: (source: String, userAgent: String?),
        redeemAtOnce: Bool, decideBy: Timestamp, now: Timestamp
    ) async throws(StorageError) -> SSOPasscodeRecord? {
        let state = redeemAtOnce ? SSOPasscodeState.redeemed : .claimed
        let redeemedAt: Int64? = redeemAtOnce ? now.milliseconds : nil
        let label = String(deviceLabel.prefix(120))
        let userAgent = observed.userAgent.map { String($0.prefix(200)) }
        return try await connector.perform("claiming an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes
                SET state = \(bind: state.rawValue), device_hash = \(bind: deviceHash), device_label = \(bind: label),
                    claimed_at = \(bind: now.milliseconds), last_poll_at = \(bind: now.milliseconds),
                    redeemed_at = \(bind: redeemedAt), expires_at = \(bind: decideBy.milliseconds),
                    claim_source = \(bind: String(observed.source.prefix(64))), claim_user_agent = \(bind: userAgent)
                WHERE passcode_hash = \(bind: hash) AND state = 'issued' AND client_id = \(bind: clientID)
                  AND expires_at > \(bind: now.milliseconds)
                RETURNING \(unsafeRaw: Self.ssoColumns)
                """).first().map(Self.ssoPasscodeRecord)
        }
    }

    /// `claimed → approved | denied`, only by the session that issued it and before its expiry;
    /// the decision moves the expiry to `releaseBy`, the end of the claiming device's time to
    /// collect approved tokens. One conditional update on `state = 'claimed'`, the session and
    /// the expiry.
    ///
    /// - Returns: Whether the decision was recorded.
    func decideSSOPasscode(id: String, sessionHash: String, approve: Bool, releaseBy: Timestamp, now: Timestamp) async throws(StorageError)
        -> Bool
    {
        let state = approve ? SSOPasscodeState.approved : .denied
        return try await connector.perform("deciding an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes
                SET state = \(bind: state.rawValue), decided_at = \(bind: now.milliseconds), expires_at = \(bind: releaseBy.milliseconds)
                WHERE id = \(bind: id) AND session_hash = \(bind: sessionHash) AND state = 'claimed'
                  AND expires_at > \(bind: now.milliseconds)
                RETURNING id
                """).first() != nil
        }
    }

    /// `approved → redeemed`, only by the device that claimed it and before the approval
    /// expires. One conditional update on `state = 'approved'`, the device and the expiry.
    ///
    /// - Returns: Whether this call redeemed it (only one ever does).
    func redeemSSOPasscode(hash: String, deviceHash: String, now: Timestamp) async throws(StorageError) -> Bool {
        try await connector.perform("redeeming an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET state = 'redeemed', redeemed_at = \(bind: now.milliseconds)
                WHERE passcode_hash = \(bind: hash) AND state = 'approved' AND device_hash = \(bind: deviceHash)
                  AND expires_at > \(bind: now.milliseconds)
                RETURNING id
                """).first() != nil
        }
    }

    /// `claimed | approved → cancelled`, when a device other than the claiming one presents
    /// the passcode. One conditional update on the state and the device.
    ///
    /// - Returns: Whether this call cancelled it.
    func cancelSSOPasscode(hash: String, otherDeviceHash: String, now: Timestamp) async throws(StorageError) -> Bool {
        try await connector.perform("cancelling an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET state = 'cancelled', decided_at = \(bind: now.milliseconds)
                WHERE passcode_hash = \(bind: hash) AND state IN ('claimed', 'approved') AND device_hash <> \(bind: otherDeviceHash)
                RETURNING id
                """).first() != nil
        }
    }

    /// Records the grant a redemption released, unless the passcode was presented again since.
    ///
    /// - Returns: Whether it was recorded; `false` means a reuse came first, and the grant
    ///   must be revoked.
    func recordSSORelease(hash: String, familyID: String) async throws(StorageError) -> Bool {
        try await connector.perform("recording an SSO release") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET family_id = \(bind: familyID)
                WHERE passcode_hash = \(bind: hash) AND state = 'redeemed' AND reused_at IS NULL AND family_id IS NULL
                RETURNING id
                """).first() != nil
        }
    }

    /// Notes that a redeemed passcode was presented again (the first time counts).
    ///
    /// - Returns: The grant it released, when one is recorded; a release recorded after this
    ///   call is refused (``recordSSORelease(hash:familyID:)``).
    func recordSSOReuse(hash: String, now: Timestamp) async throws(StorageError) -> String? {
        try await connector.perform("recording an SSO reuse") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET reused_at = COALESCE(reused_at, \(bind: now.milliseconds))
                WHERE passcode_hash = \(bind: hash) AND state = 'redeemed'
                RETURNING family_id
                """).first()?.decode(column: "family_id", as: String?.self)
        }
    }

    /// Deletes the passcodes that expired before `before`, whatever their state.
    ///
    /// - Returns: How many were deleted.
    func deleteExpiredSSOPasscodes(before: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting expired SSO passcodes") { database in
            try await database.raw("DELETE FROM sso_passcodes WHERE expires_at < \(bind: before.milliseconds) RETURNING id").all().count
        }
    }

    /// One conditional update on the last poll's time.
    func recordSSOPoll(hash: String, interval: Duration, now: Timestamp) async throws(StorageError) -> Bool {
        let earliest = now.adding(.zero - interval).milliseconds
        return try await connector.perform("recording an SSO poll") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET last_poll_at = \(bind: now.milliseconds)
                WHERE passcode_hash = \(bind: hash) AND (last_poll_at IS NULL OR last_poll_at <= \(bind: earliest))
                RETURNING id
                """).first() != nil
        }
    }

    static func ssoPasscodeRecord(_ row: any SQLRow) throws -> SSOPasscodeRecord {
        func time(_ column: String) throws -> Timestamp? {
            try row.decode(column: column, as: Int64?.self).map(Timestamp.init(milliseconds:))
        }
        let stateName = try row.decode(column: "state", as: String.self)
        guard let state = SSOPasscodeState(rawValue: stateName) else { throw StorageError.corruptRecord("sso passcode state \(stateName)") }
        var record = SSOPasscodeRecord(
            id: try row.decode(column: "id", as: String.self), clientID: try row.decode(column: "client_id", as: String.self),
            userID: try row.decode(column: "user_id", as: String.self), sessionHash: try row.decode(column: "session_hash", as: String.self),
            createdAt: Timestamp(milliseconds: try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: Timestamp(milliseconds: try row.decode(column: "expires_at", as: Int64.self)))
        record.state = state
        record.deviceHash = try row.decode(column: "device_hash", as: String?.self)
        record.deviceLabel = try row.decode(column: "device_label", as: String?.self)
        record.claimedAt = try time("claimed_at")
        record.decidedAt = try time("decided_at")
        record.lastPollAt = try time("last_poll_at")
        record.redeemedAt = try time("redeemed_at")
        record.issueSource = try row.decode(column: "issue_source", as: String?.self)
        record.claimSource = try row.decode(column: "claim_source", as: String?.self)
        record.claimUserAgent = try row.decode(column: "claim_user_agent", as: String?.self)
        record.familyID = try row.decode(column: "family_id", as: String?.self)
        record.reusedAt = try time("reused_at")
        return record
    }
}
