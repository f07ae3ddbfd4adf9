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
        claimed_at, decided_at, last_poll_at, redeemed_at
        """

    /// Stores a new passcode under the SHA-256 of its secret.
    func createSSOPasscode(_ record: SSOPasscodeRecord, passcodeHash: String) async throws(StorageError) {
        try await connector.perform("creating an SSO passcode") { database in
            try await database.raw("""
                INSERT INTO sso_passcodes (id, passcode_hash, client_id, user_id, session_hash, state, created_at, expires_at)
                VALUES (\(bind: record.id), \(bind: passcodeHash), \(bind: record.clientID), \(bind: record.userID),
                        \(bind: record.sessionHash), 'issued', \(bind: record.createdAt.milliseconds), \(bind: record.expiresAt.milliseconds))
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
    /// issued, unexpired and `clientID`'s; a claim moves the expiry to `decideBy`.
    ///
    /// - Returns: The record after the change, or `nil` when the condition did not hold.
    /// `claimed → approved | denied`, only by the session that issued it and before its expiry.
    ///
    /// - Returns: Whether the decision was recorded.
    /// `approved → redeemed`, only by the device that claimed it.
    ///
    /// - Returns: Whether this call redeemed it (only one ever does).
    /// Records a poll by the claiming device, unless its last one was less than `interval` ago.
    ///
    /// - Returns: Whether the poll counts; `false` means too soon (`slow_down`).
    ///
    /// One conditional update on `state = 'issued'`, the client and the expiry.
    func claimSSOPasscode(
        hash: String, clientID: String, deviceHash: String, deviceLabel: String, redeemAtOnce: Bool, decideBy: Timestamp, now: Timestamp
    ) async throws(StorageError) -> SSOPasscodeRecord? {
        let state = redeemAtOnce ? SSOPasscodeState.redeemed : .claimed
        let redeemedAt: Int64? = redeemAtOnce ? now.milliseconds : nil
        let label = String(deviceLabel.prefix(120))
        return try await connector.perform("claiming an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes
                SET state = \(bind: state.rawValue), device_hash = \(bind: deviceHash), device_label = \(bind: label),
                    claimed_at = \(bind: now.milliseconds), last_poll_at = \(bind: now.milliseconds),
                    redeemed_at = \(bind: redeemedAt), expires_at = \(bind: decideBy.milliseconds)
                WHERE passcode_hash = \(bind: hash) AND state = 'issued' AND client_id = \(bind: clientID)
                  AND expires_at > \(bind: now.milliseconds)
                RETURNING \(unsafeRaw: Self.ssoColumns)
                """).first().map(Self.ssoPasscodeRecord)
        }
    }

    /// One conditional update on `state = 'claimed'`, the session and the expiry.
    func decideSSOPasscode(id: String, sessionHash: String, approve: Bool, now: Timestamp) async throws(StorageError) -> Bool {
        let state = approve ? SSOPasscodeState.approved : .denied
        return try await connector.perform("deciding an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET state = \(bind: state.rawValue), decided_at = \(bind: now.milliseconds)
                WHERE id = \(bind: id) AND session_hash = \(bind: sessionHash) AND state = 'claimed'
                  AND expires_at > \(bind: now.milliseconds)
                RETURNING id
                """).first() != nil
        }
    }

    /// One conditional update on `state = 'approved'` and the claiming device.
    func redeemSSOPasscode(hash: String, deviceHash: String, now: Timestamp) async throws(StorageError) -> Bool {
        try await connector.perform("redeeming an SSO passcode") { database in
            try await database.raw("""
                UPDATE sso_passcodes SET state = 'redeemed', redeemed_at = \(bind: now.milliseconds)
                WHERE passcode_hash = \(bind: hash) AND state = 'approved' AND device_hash = \(bind: deviceHash)
                RETURNING id
                """).first() != nil
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
        return record
    }
}
