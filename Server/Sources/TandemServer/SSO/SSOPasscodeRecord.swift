/// A stored SSO passcode: never the passcode itself, only what it is bound to and where it is.
struct SSOPasscodeRecord: Sendable, Hashable {
    /// The public id the desktop page polls the state with (not the passcode).
    var id: String
    /// The app it onboards; a redemption by another client is refused.
    var clientID: String
    /// The user whose grant it releases.
    var userID: String
    /// The SHA-256 of the desktop browser session that asked for it: only that session sees its
    /// state and decides.
    var sessionHash: String
    /// Where it is in its life.
    var state: SSOPasscodeState
    /// When it was issued.
    var createdAt: Timestamp
    /// Until when it may be claimed (and, once claimed, until when the desktop may decide).
    var expiresAt: Timestamp
    /// The SHA-256 of the secret the claiming device chose; its polls must present it.
    var deviceHash: String?
    /// What the claiming device said it is, for the desktop page (shown escaped).
    var deviceLabel: String?
    /// When a phone claimed it.
    var claimedAt: Timestamp?
    /// When the desktop decided.
    var decidedAt: Timestamp?
    /// When the claiming device last polled.
    var lastPollAt: Timestamp?
    /// When tokens were released.
    var redeemedAt: Timestamp?
    /// The address that asked for it (the desktop browser's), to compare with the claim's.
    var issueSource: String?
    /// What the server observed of the claiming request, for the desktop's decision: its
    /// address and its user agent.
    var claimSource: String?
    var claimUserAgent: String?
    /// The grant its redemption released; a later use of the passcode revokes it.
    var familyID: String?
    /// When it was first presented again after its tokens were released.
    var reusedAt: Timestamp?

    /// A passcode just issued.
    init(
        id: String, clientID: String, userID: String, sessionHash: String, createdAt: Timestamp, expiresAt: Timestamp,
        issueSource: String? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.userID = userID
        self.sessionHash = sessionHash
        state = .issued
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.issueSource = issueSource
    }
}
