/// The business data behind the resource endpoints: destinations, their entity sets, and each
/// set's rows as JSON objects in a stable order.
///
/// ``SQLServerStorage`` implements it with the same statements on SQLite and PostgreSQL. A set's
/// rows are replaced as a whole, in one transaction, so a reader never sees half a set.
///
/// ```swift
/// try await storage.replaceEntitySet(destination: "sales", title: "Sales (demo)", name: "Customers",
///                                    rows: [#"{"CustomerID":"C0001"}"#], now: Timestamp(clock.now))
/// let page = try await storage.entityPage(destination: "sales", entitySet: "Customers", offset: 0, limit: 50)
/// ```
public protocol BusinessDataStorage: Sendable {
    /// Every destination with its entity sets, sorted by name.
    func destinations() async throws(StorageError) -> [DestinationSummary]

    /// Whether a destination with this name exists.
    func destinationExists(_ name: String) async throws(StorageError) -> Bool

    /// A page of an entity set, read in one query.
    ///
    /// - Parameters:
    ///   - destination: The destination's name.
    ///   - entitySet: The entity set's name.
    ///   - offset: The position of the first row (0-based); past the end gives an empty page.
    ///   - limit: The most rows to return.
    /// - Returns: The page, or `nil` when the destination or the entity set does not exist.
    func entityPage(destination: String, entitySet: String, offset: Int, limit: Int) async throws(StorageError) -> EntityPage?

    /// An entity set's version: a hash of its rows that changes whenever they do, read with one
    /// primary-key lookup. `nil` when the destination or the entity set does not exist.
    func entitySetVersion(destination: String, entitySet: String) async throws(StorageError) -> String?

    /// Creates or replaces an entity set's rows, creating its destination if needed, in one
    /// transaction. Nothing is written when the rows are identical to those stored.
    ///
    /// - Parameters:
    ///   - destination: The destination's name.
    ///   - title: The destination's title (updated when it differs).
    ///   - name: The entity set's name.
    ///   - rows: Each row as the JSON text of an object, stored verbatim at positions 0, 1, 2, ….
    ///   - now: The time recorded as the set's update time.
    /// - Returns: `true` when something was written, `false` when the stored set was already identical.
    @discardableResult
    func replaceEntitySet(destination: String, title: String, name: String, rows: [String], now: Timestamp) async throws(StorageError) -> Bool
}
