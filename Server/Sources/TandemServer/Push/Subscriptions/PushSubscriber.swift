/// A user of an app whose registered devices' widgets show an entity set.
struct PushSubscriber: Sendable, Hashable {
    /// The app.
    var clientID: String
    /// The user.
    var userID: String
    /// The most rows one of the user's widgets shows of the set.
    var rows: Int
}
