#if canImport(Darwin)
/// Why the App Group's shared directory cannot be used.
public enum AppGroupContainerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The app (or extension) lacks the App Groups entitlement for this group.
    case entitlementMissing(String)
    /// The directory exists but the shared container cannot be prepared in it.
    case unusable(String)

    public var description: String {
        switch self {
        case .entitlementMissing(let group):
            "no App Group container for \(group): add it to the App Groups entitlement of the app and of every extension"
        case .unusable(let reason): "the App Group container cannot be used: \(reason)"
        }
    }
}
#endif
