/// What a write of an entity set requires of the set as stored: a resource server's writes are
/// conditional (RFC 9110 §13), so a back office that did not see the set's current version — a
/// decision made since, another writer — cannot overwrite it without knowing.
enum EntitySetPrecondition: Sendable, Equatable {
    /// Whatever is stored (the administrator's tools, the demo's seed).
    case none
    /// `If-Match`: the set's current version (``EntitySetReplacement/version``) is one of these.
    case versions([String])
    /// Only a set that does not exist yet may be written: `If-None-Match: *` says so (`stated`),
    /// and a write with no precondition means it (a set that exists then needs `If-Match`).
    case newSet(stated: Bool)

    /// Whether the precondition holds for a set whose version is `current` (`nil`: no such set).
    func holds(forVersion current: String?) -> Bool {
        switch self {
        case .none: true
        case .versions(let versions): current.map(versions.contains) ?? false
        case .newSet: current == nil
        }
    }
}
