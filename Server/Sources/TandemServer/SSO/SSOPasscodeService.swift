import Foundation
import TandemPlatform
import TandemProtocol

/// Issues and redeems the one-time passcodes of cross-context SSO, with the defences the
/// cross-device flows BCP (RFC 10027) asks for: 256 random bits stored only as SHA-256, a short
/// life (60 s by default), one use, bound to the app's client and to the first device that
/// claims it, desktop approval where the app asks for it (showing what the server observed of
/// that device), and an audit line for every step and every failure.
///
/// A redemption moves the passcode along `issued → claimed → approved → redeemed` (or
/// `denied`); without desktop confirmation `issued → redeemed` in one step. A second device
/// presenting a claimed or approved passcode moves it to `cancelled`: someone else saw the
/// code, so nobody gets tokens and the desktop says so instead of offering Approve. Any use
/// after the release revokes the grant it released. The approval expires too: the device has
/// `releaseWindow` to collect its tokens. Each move is one conditional update, so of two
/// callers with the same passcode exactly one gets anywhere. Lifetimes, windows and the
/// polling interval run on the service's clock.
struct SSOPasscodeService: Sendable {
    /// The stored passcodes.
    let storage: SSOStore
    /// Where every step is recorded.
    let audit: AuditLog
    /// How long a passcode may be claimed.
    let lifetime: Duration
    /// How long the desktop has to decide once a phone claimed it.
    let decisionWindow: Duration
    /// How long an approved device has to collect its tokens.
    var releaseWindow: Duration = .seconds(60)
    /// The shortest time between two polls of the claiming device.
    let pollInterval: Duration
    /// What time it is, for lifetimes, the decision window and the polling interval.
    var clock: any WallClock = SystemClock()

    /// A passcode for `userID` to onboard `clientID`, shown on the page of the browser session
    /// `sessionHash`.
    ///
    /// - Returns: The secret (for the QR code and the link, never stored) and its record.
    func issue(userID: String, clientID: String, sessionHash: String, source: String) async throws(StorageError)
        -> (passcode: String, record: SSOPasscodeRecord)
    {
        let now = Timestamp(clock.now)
        let passcode = SecretToken.generate(.ssoPasscode)
        let record = SSOPasscodeRecord(
            id: UUID().uuidString.lowercased(), clientID: clientID, userID: userID, sessionHash: sessionHash, createdAt: now,
            expiresAt: now.adding(lifetime), issueSource: source)
        try await storage.createSSOPasscode(record, passcodeHash: SecretToken.hash(passcode))
        try await audit.record("sso.issued", clientID: clientID, userID: userID, source: source, detail: "passcode \(record.id)", now: now)
        return (passcode, record)
    }

    /// A phone's redemption (or poll) of `passcode` as `clientID`.
    ///
    /// - Parameters:
    ///   - deviceSecret: The secret the phone chose; every poll must present the same one.
    ///   - deviceLabel: What the phone says it is, shown on the desktop page.
    ///   - confirmation: Whether the app wants the desktop's approval first.
    ///   - source: The request's network address.
    ///   - userAgent: The request's `User-Agent`, shown to the desktop with the address.
    func redeem(
        passcode: String, clientID: String, deviceSecret: String, deviceLabel: String, confirmation: Bool, source: String,
        userAgent: String? = nil
    ) async throws(StorageError) -> SSORedemption {
        let now = Timestamp(clock.now)
        let hash = SecretToken.hash(passcode)
        let device = SecretToken.hash(deviceSecret)
        guard let record = try await storage.ssoPasscode(hash: hash) else {
            try await audit.recordRefusal("sso.unknown", clientID: clientID, source: source, detail: "no such passcode", now: now)
            return .unknown
        }
        guard ConstantTime.equals(record.clientID, clientID) else {
            return try await refuse(
                "sso.wrong-client", "passcode \(record.id) of \(record.clientID) presented by another client", clientID: clientID,
                userID: record.userID, source: source, now: now)
        }
        let claimedByThisDevice = record.deviceHash.map { ConstantTime.equals($0, device) } ?? false
        switch record.state {
        case .issued:
            guard now < record.expiresAt else {
                return try await refuse("sso.expired", "passcode \(record.id) used after it expired", record, source: source, now: now)
            }
            guard let claimed = try await storage.claimSSOPasscode(
                hash: hash, clientID: clientID, deviceHash: device, deviceLabel: deviceLabel, observed: (source, userAgent),
                redeemAtOnce: !confirmation, decideBy: now.adding(decisionWindow), now: now)
            else {
                // Another request claimed it a moment before.
                return try await reread(hash: hash, device: device, source: source, now: now)
            }
            if claimed.state == .redeemed {
                try await audit.record("sso.redeemed", clientID: clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
                return .granted(userID: record.userID)
            }
            try await audit.record(
                "sso.claimed", clientID: clientID, userID: record.userID, source: source,
                detail: "passcode \(record.id) claimed by \(String(deviceLabel.prefix(60))); waiting for the desktop", now: now)
            return .pending
        case .claimed, .approved, .denied, .cancelled:
            guard claimedByThisDevice else { return try await reread(hash: hash, device: device, source: source, now: now) }
            return try await poll(record, hash: hash, device: device, source: source, now: now)
        case .redeemed:
            return try await reuse(record, hash: hash, source: source, now: now)
        }
    }

    /// The claiming device's poll of its passcode `record`.
    private func poll(_ record: SSOPasscodeRecord, hash: String, device: String, source: String, now: Timestamp) async throws(StorageError)
        -> SSORedemption
    {
        switch record.state {
        case .claimed:
            guard now < record.expiresAt else {
                try await audit.record("sso.undecided", clientID: record.clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
                return .expired
            }
            return try await storage.recordSSOPoll(hash: hash, interval: pollInterval, now: now) ? .pending : .slowDown
        case .approved:
            guard now < record.expiresAt else {
                try await audit.record(
                    "sso.uncollected", clientID: record.clientID, userID: record.userID, source: source,
                    detail: "passcode \(record.id) approved but not collected in time", now: now)
                return .expired
            }
            guard try await storage.redeemSSOPasscode(hash: hash, deviceHash: device, now: now) else {
                // Cancelled or redeemed by a concurrent request since it was read: read it again.
                return try await reread(hash: hash, device: device, source: source, now: now)
            }
            try await audit.record("sso.redeemed", clientID: record.clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
            return .granted(userID: record.userID)
        case .denied:
            return .denied
        case .cancelled:
            return .cancelled
        case .issued, .redeemed:
            return try await refuse("sso.reuse", "passcode \(record.id) polled in state \(record.state.rawValue)", record, source: source, now: now)
        }
    }

    /// Reads the passcode again after a concurrent request moved it, or when a device other than
    /// the claiming one presented it, and answers for what it is now: the claiming device polls;
    /// for any other device a claimed or approved transfer is cancelled (someone else has the
    /// code; nobody gets tokens), a released one is revoked, and the device is refused.
    private func reread(hash: String, device: String, source: String, now: Timestamp) async throws(StorageError) -> SSORedemption {
        guard let record = try await storage.ssoPasscode(hash: hash) else {
            try await audit.recordRefusal("sso.unknown", clientID: nil, source: source, detail: "no such passcode", now: now)
            return .unknown
        }
        if record.state != .redeemed, let claimer = record.deviceHash, ConstantTime.equals(claimer, device) {
            return try await poll(record, hash: hash, device: device, source: source, now: now)
        }
        switch record.state {
        case .claimed, .approved:
            if try await storage.cancelSSOPasscode(hash: hash, otherDeviceHash: device, now: now) {
                try await audit.record(
                    "sso.contested", clientID: record.clientID, userID: record.userID, source: source,
                    detail: "passcode \(record.id) presented by a second device after \(record.state.rawValue); transfer cancelled", now: now)
                return .invalid("passcode \(record.id) presented by a second device; transfer cancelled")
            }
            // Its state moved since it was read: decide again on what it is now.
            return try await reread(hash: hash, device: device, source: source, now: now)
        case .redeemed:
            return try await reuse(record, hash: hash, source: source, now: now)
        case .issued, .denied, .cancelled:
            return try await refuse("sso.reuse", "passcode \(record.id) presented by a second device", record, source: source, now: now)
        }
    }

    /// The passcode was presented again after its tokens were released: whatever it released
    /// is to be revoked (RFC 9700 §4.5's rule for authorization codes, applied to passcodes).
    private func reuse(_ record: SSOPasscodeRecord, hash: String, source: String, now: Timestamp) async throws(StorageError) -> SSORedemption {
        let family = try await storage.recordSSOReuse(hash: hash, now: now)
        let detail = "passcode \(record.id) presented again after its tokens were released"
        try await audit.record("sso.reuse", clientID: record.clientID, userID: record.userID, source: source, detail: detail, now: now)
        return .reused(detail, releasedFamily: family)
    }

    /// Records the grant `familyID` that redeeming `passcode` released.
    ///
    /// - Returns: Whether it stands; `false` when the passcode was presented again meanwhile,
    ///   and the grant must be revoked before anything of it is returned.
    func recordRelease(passcode: String, familyID: String) async throws(StorageError) -> Bool {
        try await storage.recordSSORelease(hash: SecretToken.hash(passcode), familyID: familyID)
    }

    /// The desktop's decision on the passcode `id`, by the browser session that showed it.
    ///
    /// - Returns: Whether it was recorded (the passcode is claimed, undecided, unexpired and this
    ///   session's).
    func decide(id: String, sessionHash: String, approve: Bool, userID: String, clientID: String, source: String)
        async throws(StorageError) -> Bool
    {
        let now = Timestamp(clock.now)
        guard try await storage.decideSSOPasscode(id: id, sessionHash: sessionHash, approve: approve, releaseBy: now.adding(releaseWindow), now: now)
        else { return false }
        try await audit.record(
            approve ? "sso.approved" : "sso.denied", clientID: clientID, userID: userID, source: source, detail: "passcode \(id)", now: now)
        return true
    }

    private func refuse(_ kind: String, _ detail: String, _ record: SSOPasscodeRecord, source: String, now: Timestamp) async throws(StorageError)
        -> SSORedemption
    {
        try await refuse(kind, detail, clientID: record.clientID, userID: record.userID, source: source, now: now)
    }

    private func refuse(_ kind: String, _ detail: String, clientID: String, userID: String?, source: String, now: Timestamp) async throws(StorageError)
        -> SSORedemption
    {
        try await audit.record(kind, clientID: clientID, userID: userID, source: source, detail: detail, now: now)
        return .invalid(detail)
    }
}
