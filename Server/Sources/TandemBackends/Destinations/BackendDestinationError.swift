/// Why a backend destination's configuration was refused; nothing was saved.
public enum BackendDestinationError: Error, Sendable, CustomStringConvertible {
    /// The document is not a destination's JSON; the reason says where.
    case malformedDocument(String)
    /// A destination or entity set name breaks the name rule (the text says it).
    case invalidName(String)
    /// The title is empty, too long, or holds control characters.
    case invalidTitle
    /// The base URL is unusable; the reason says why.
    case invalidBaseURL(String)
    /// The user token's audience is empty, too long, or holds a space or control character.
    case invalidAudience
    /// The technical user's header for the user is not an HTTP field name the server may set.
    case invalidUserHeader(String)
    /// A destination needs 1 to ``BackendDestination/maximumEntitySets`` entity sets.
    case entitySetCount(Int)
    /// Two entity sets have this name.
    case duplicateEntitySet(String)
    /// The set's path is not a plain relative path below the base URL.
    case invalidPath(entitySet: String)
    /// The set's query parameter is unusable (for OData, only `$select`, `$filter`, `$orderby`
    /// and `$expand`).
    case invalidQuery(entitySet: String, name: String)
    /// The set's mapping speaks another protocol than the destination.
    case mappingProtocolMismatch(entitySet: String)
    /// The set's mapping is refused.
    case invalidMapping(entitySet: String, BackendMappingError)
    /// The set's polling interval is outside ``BackendEntitySet/pollIntervals``.
    case invalidPolling(entitySet: String)
    /// The set's actions are unusable; the text says why.
    case invalidActions(entitySet: String, String)
    /// A REST set is read from its backend's first page only: a page past offset 0 was asked for.
    case offsetNotSupported(entitySet: String)

    public var description: String {
        switch self {
        case .malformedDocument(let reason): "not a destination document: \(reason)"
        case .invalidName(let requirement): requirement
        case .invalidTitle: "the title must be 1–\(BackendDestination.maximumTitleLength) characters without control characters"
        case .invalidBaseURL(let reason): "invalid base URL: \(reason)"
        case .invalidAudience: "the user token's audience must be 1–\(BackendAuthentication.maximumAudienceLength) bytes without spaces or control characters"
        case .invalidUserHeader(let header):
            "the user header \(header.debugDescription) must be an HTTP field name of 1–\(BackendAuthentication.maximumUserHeaderLength) characters, "
                + "not one the server sets (Authorization, Cookie, If-Match, …)"
        case .entitySetCount(let count): "a destination has 1–\(BackendDestination.maximumEntitySets) entity sets, not \(count)"
        case .duplicateEntitySet(let name): "two entity sets are named \(name.debugDescription)"
        case .invalidPath(let set): "entity set \(set.debugDescription): the path must be relative to the base URL, without '..', query or fragment"
        case .invalidQuery(let set, let name): "entity set \(set.debugDescription): query parameter \(name.debugDescription) is not allowed"
        case .mappingProtocolMismatch(let set): "entity set \(set.debugDescription): its mapping speaks another protocol than the destination"
        case .invalidMapping(let set, let error): "entity set \(set.debugDescription): \(error)"
        case .invalidPolling(let set):
            "entity set \(set.debugDescription): pollEverySeconds must be \(BackendEntitySet.pollIntervals.lowerBound) to \(BackendEntitySet.pollIntervals.upperBound)"
        case .invalidActions(let set, let reason): "entity set \(set.debugDescription): \(reason)"
        case .offsetNotSupported(let set): "entity set \(set.debugDescription) is read from its REST backend's first page only: ask for offset 0"
        }
    }
}
