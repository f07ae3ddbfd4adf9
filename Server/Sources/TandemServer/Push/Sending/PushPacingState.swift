import TandemPlatform

/// What the server knows of one device's pushes of one kind, for its budget: the day they
/// count in, how many went that day, and when the last one went. Stored in `push_pacing`, so
/// every instance and a restarted one pace alike.
struct PushPacingState: Sendable, Hashable {
    /// The start of the day (midnight in the device's time zone) the count is for.
    var dayStart: Timestamp
    /// Pushes sent that day.
    var sentInDay: Int
    /// When the last push went (took a slot of the budget).
    var lastSentAt: Timestamp
    /// When APNs last accepted a push: the device reloaded what changed before then.
    var deliveredAt: Timestamp? = nil
}
