/// Why the push provider could not do what it was asked.
enum APNsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The auth key is unusable (not a P-256 key, or it does not open).
    case invalidKey(String)
    /// A key id, team id or bundle id that Apple would never issue.
    case invalidIdentifier(String)
    /// The connection to APNs failed before an answer came (the send may be tried again).
    case unreachable(String)

    var description: String {
        switch self {
        case .invalidKey(let reason): "APNs key unusable: \(reason)"
        case .invalidIdentifier(let reason): "invalid APNs identifier: \(reason)"
        case .unreachable(let reason): "APNs unreachable: \(reason)"
        }
    }
}
