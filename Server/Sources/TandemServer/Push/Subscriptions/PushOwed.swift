/// A push one device token may be owed for a change: what its widgets would show after it,
/// against what its last push showed. Read per subscription, then combined per token.
struct PushOwed: Sendable, Hashable {
    /// One device token of a registration.
    struct Device: Sendable, Hashable {
        var clientID: String
        var userID: String
        var deviceID: String
        /// `host` or `widgets`.
        var kind: String
    }

    /// The token.
    var device: Device
    /// The digest of what its widgets would show (``PushViewDigest``).
    var digest: String
    /// The digest its last push for the set showed, if it had one.
    var lastDigest: String?
    /// Whether a push for the set is owed already.
    var isOwed: Bool

    /// One entry per device token: several widgets showing one set (with different rows or
    /// fields, or both deliveries) combine their digests, in a fixed order.
    static func combined(_ owed: [PushOwed]) -> [PushOwed] {
        var byDevice: [Device: PushOwed] = [:]
        var order: [Device] = []
        for entry in owed {
            guard var existing = byDevice[entry.device] else {
                byDevice[entry.device] = entry
                order.append(entry.device)
                continue
            }
            existing.digest = [existing.digest, entry.digest].sorted().joined(separator: "+")
            byDevice[entry.device] = existing
        }
        return order.compactMap { byDevice[$0] }
    }
}
