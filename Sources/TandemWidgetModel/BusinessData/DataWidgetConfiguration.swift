/// What the user chose for one business widget: which entity set of which destination, how
/// many rows, and which fields of a row make its key and its value.
///
/// The choices come from the ``DestinationCatalog`` the host caches; on Apple they are an App
/// Intent's parameters. A `DataWidgetProvider` asks for exactly ``entitySetKey``, so changing
/// the configuration changes what is requested.
///
/// ```swift
/// let orders = DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders", limit: 10,
///                                      keyField: "SalesOrderID", valueField: "GrossAmount")
/// ```
public struct DataWidgetConfiguration: Codable, Hashable, Sendable {
    /// The rows asked for when the user did not choose: enough for the largest family.
    public static let defaultLimit = 10
    /// The largest page the server serves.
    public static let maximumLimit = 500

    /// The destination, such as `sales`.
    public var destination: String
    /// The entity set, such as `SalesOrders`.
    public var entitySet: String
    /// How many rows to ask for, 1 to ``maximumLimit``.
    public var limit: Int
    /// The field shown as a row's key; `nil` for the default (see ``EntitySetPage/rows(keyField:valueField:entitySet:)``).
    public var keyField: String?
    /// The field shown as a row's value; `nil` for the default.
    public var valueField: String?

    /// A configuration showing `limit` rows of `entitySet` in `destination`.
    ///
    /// - Parameters:
    ///   - destination: The destination's name, as the server's listing gives it.
    ///   - entitySet: The entity set's name.
    ///   - limit: Rows to ask for; clamped to 1…``maximumLimit``.
    ///   - keyField: The field for a row's key; `nil` picks the entity's identifier.
    ///   - valueField: The field for a row's value; `nil` picks the entity's name.
    public init(destination: String, entitySet: String, limit: Int = defaultLimit, keyField: String? = nil, valueField: String? = nil) {
        self.destination = destination
        self.entitySet = entitySet
        self.limit = min(max(limit, 1), Self.maximumLimit)
        self.keyField = keyField
        self.valueField = valueField
    }

    /// The page the widget requests and the key of its snapshot.
    public var entitySetKey: EntitySetKey {
        EntitySetKey(destination: destination, entitySet: entitySet, limit: limit)
    }

    /// A title for the widget: "SalesOrders · sales".
    public var title: String { "\(entitySet) · \(destination)" }
}
