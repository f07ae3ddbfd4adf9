/// The failed sign-ins in a row for one username at one client, as stored.
struct SignInFailures: Sendable, Hashable {
    /// How many failures since the last success (or since they were forgotten).
    var count: Int
    /// When the latest failure happened.
    var lastFailureAt: Timestamp
}
