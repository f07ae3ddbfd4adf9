/// Why business data for a widget could not be used. None of these reaches the user as a
/// crash: the `DataWidgetProvider` turns each into a state (and a log line).
public enum DataWidgetError: Error, Hashable, Sendable {
    /// A page of an entity set is not the server's page JSON (`{"items":[{…}],…}`): the provider
    /// asks for the data again and keeps showing what it had. `reason` is for logs.
    case undecodablePage(reason: String)
    /// A `/v1/destinations` listing is not the server's JSON: the host keeps the catalog it had.
    case undecodableListing(reason: String)
    /// A widget instance's parameters in the registry are not a business widget's configuration
    /// (a destination, an entity set and a limit of 1 to 500): the instance is skipped.
    case invalidConfiguration(reason: String)
}

extension DataWidgetError: CustomStringConvertible {
    /// What went wrong, in words meant for logs; never a secret.
    public var description: String {
        switch self {
        case .undecodablePage(let reason): "the entity-set page does not decode: \(reason)"
        case .undecodableListing(let reason): "the destinations listing does not decode: \(reason)"
        case .invalidConfiguration(let reason): "not a business widget configuration: \(reason)"
        }
    }
}
