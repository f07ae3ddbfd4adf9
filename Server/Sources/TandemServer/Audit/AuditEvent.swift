/// One line of the audit log: what happened to an SSO passcode (issued, claimed, approved,
/// denied, redeemed, refused, reused), when, for which app and user, from where. Never a secret.
public struct AuditEvent: Sendable, Hashable {
    /// A unique id; of two events in the same millisecond from one instance, the later one's
    /// sorts higher.
    public var id: String
    /// When it happened.
    public var at: Timestamp
    /// What happened, such as `sso.issued` or `sso.reuse`.
    public var kind: String
    /// The app concerned, if known.
    public var clientID: String?
    /// The user concerned, if known.
    public var userID: String?
    /// The caller's source address (or the server's key for it), if known.
    public var source: String?
    /// Details in words.
    public var detail: String

    /// Creates an event.
    public init(id: String, at: Timestamp, kind: String, clientID: String?, userID: String?, source: String?, detail: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.clientID = clientID
        self.userID = userID
        self.source = source
        self.detail = detail
    }
}
