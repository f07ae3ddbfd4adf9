import Foundation
import TandemPlatform
import TandemProtocol

/// Issues and redeems the one-time passcodes of cross-context SSO, with the defences the
/// cross-device flows BCP asks for: 256 random bits stored only as SHA-256, a short life (60 s
/// by default), one use, bound to the app's client and to the device that claims it, desktop
/// approval where the app asks for it, and an audit line for every step and every failure.
///
/// A redemption moves the passcode along `issued → claimed → approved → redeemed` (or
/// `denied`); without desktop confirmation `issued → redeemed` in one step. Each move is one
/// conditional update, so of two callers with the same passcode exactly one gets anywhere.
/// Lifetimes, the decision window and the polling interval run on the service's clock.
struct SSOPasscodeService: Sendable {
    /// The stored passcodes.
    let storage: SSOStore
    /// Where every step is recorded.
    let audit: AuditLog
    /// How long a passcode may be claimed.
    let lifetime: Duration
    /// How long the desktop has to decide once a phone claimed it.
    let decisionWindow: Duration
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
            expiresAt: now.adding(lifetime))
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
    func redeem(
        passcode: String, clientID: String, deviceSecret: String, deviceLabel: String, confirmation: Bool, source: String
    ) async throws(StorageError) -> SSORedemption {
        let now = Timestamp(clock.now)
        let hash = SecretToken.hash(passcode)
        let device = SecretToken.hash(deviceSecret)
        guard let record = try await storage.ssoPasscode(hash: hash) else {
            return try await refuse("sso.unknown", "no such passcode", clientID: clientID, userID: nil, source: source, now: now)
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
                hash: hash, clientID: clientID, deviceHash: device, deviceLabel: deviceLabel, redeemAtOnce: !confirmation,
                decideBy: now.adding(decisionWindow), now: now)
            else {
                return try await refuse("sso.reuse", "passcode \(record.id) was claimed by another request", record, source: source, now: now)
            }
            if claimed.state == .redeemed {
                try await audit.record("sso.redeemed", clientID: clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
                return .granted(userID: record.userID)
            }
            try await audit.record(
                "sso.claimed", clientID: clientID, userID: record.userID, source: source,
                detail: "passcode \(record.id) claimed by \(String(deviceLabel.prefix(60))); waiting for the desktop", now: now)
            return .pending
        case .claimed:
            guard claimedByThisDevice else {
                return try await refuse("sso.reuse", "passcode \(record.id) presented by a second device", record, source: source, now: now)
            }
            guard now < record.expiresAt else {
                try await audit.record("sso.undecided", clientID: clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
                return .expired
            }
            return try await storage.recordSSOPoll(hash: hash, interval: pollInterval, now: now) ? .pending : .slowDown
        case .approved:
            guard claimedByThisDevice else {
                return try await refuse("sso.reuse", "passcode \(record.id) presented by a second device", record, source: source, now: now)
            }
            guard try await storage.redeemSSOPasscode(hash: hash, deviceHash: device, now: now) else {
                return try await refuse("sso.reuse", "passcode \(record.id) was redeemed by another request", record, source: source, now: now)
            }
            try await audit.record("sso.redeemed", clientID: clientID, userID: record.userID, source: source, detail: "passcode \(record.id)", now: now)
            return .granted(userID: record.userID)
        case .denied:
            guard claimedByThisDevice else {
                return try await refuse("sso.reuse", "passcode \(record.id) presented by a second device", record, source: source, now: now)
            }
            return .denied
        case .redeemed:
            return try await refuse("sso.reuse", "passcode \(record.id) presented again after its tokens were released", record, source: source, now: now)
        }
    }

    /// The desktop's decision on the passcode `id`, by the browser session that showed it.
    ///
    /// - Returns: Whether it was recorded (the passcode is claimed, undecided, unexpired and this
    ///   session's).
    func decide(id: String, sessionHash: String, approve: Bool, userID: String, clientID: String, source: String)
        async throws(StorageError) -> Bool
    {
        let now = Timestamp(clock.now)
        guard try await storage.decideSSOPasscode(id: id, sessionHash: sessionHash, approve: approve, now: now) else { return false }
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
