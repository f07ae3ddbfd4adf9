import Foundation
import SQLKit
import TandemPlatform
import TandemProtocol

/// Widget actions' storage: which entity sets are actionable (and their items), the answers
/// kept for idempotency keys, and the decisions themselves (``ActionStore+Decisions``). The
/// same statements run on SQLite and PostgreSQL.
///
/// ```swift
/// try await database.actions.setActionable(destination: "sales", entitySet: "Approvals", idField: "ApprovalID", now: now)
/// let item = try await database.actions.item(destination: "sales", entitySet: "Approvals", itemID: "PR-1001")
/// ```
struct ActionStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// How long the answer to an idempotency key is kept: a repeat within it gets the same
    /// answer; after it the key may be used again.
    static let idempotencyWindow = Duration.seconds(24 * 3600)

    // MARK: - Actionable sets

    /// The id field of the entity set `entitySet` of `destination` if it is actionable, read
    /// inside a transaction that is already open (the one storing its rows).
    static func idField(destination: String, entitySet: String, in database: any SQLDatabase) async throws -> String? {
        try await database.raw("""
            SELECT id_field FROM actionable_entity_sets WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet)
            """).first()?.decode(column: "id_field", as: String.self)
    }

    /// The id field of an actionable set, or `nil` when the set is not actionable.
    func idField(destination: String, entitySet: String) async throws(StorageError) -> String? {
        try await connector.perform("reading an actionable entity set") { database in
            try await Self.idField(destination: destination, entitySet: entitySet, in: database)
        }
    }

    /// Makes an entity set actionable with `idField` naming its items (or changes its id
    /// field), and prepares the rows it already holds (``ActionableRows``) in the same
    /// transaction; the set's version moves when they change. A set that does not exist yet is
    /// prepared when its rows are first written.
    ///
    /// - Returns: Whether stored rows changed.
    /// - Throws: ``StorageError/invalidRecord(_:)`` when a stored row has no id, or two the same;
    ///   nothing is changed then.
    @discardableResult
    func setActionable(destination: String, entitySet: String, idField: String, now: Timestamp) async throws(StorageError) -> Bool {
        try await connector.performTransaction("making \(destination)/\(entitySet) actionable") { database in
            try await database.raw("""
                INSERT INTO actionable_entity_sets (destination, entity_set, id_field, created_at)
                VALUES (\(bind: destination), \(bind: entitySet), \(bind: idField), \(bind: now.milliseconds))
                ON CONFLICT (destination, entity_set) DO UPDATE SET id_field = excluded.id_field
                """).run()
            let title = try await database.raw("""
                SELECT d.title AS title FROM destinations d JOIN entity_sets s ON s.destination = d.name
                WHERE d.name = \(bind: destination) AND s.name = \(bind: entitySet)
                """).first()?.decode(column: "title", as: String.self)
            guard let title else { return false }
            let rows = try await database.raw("""
                SELECT data FROM entity_rows WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet) ORDER BY position
                """).all().map { try $0.decode(column: "data", as: String.self) }
            return try await BusinessDataStore.store(
                rows, destination: destination, title: title, name: entitySet, now: now, in: database).changed
        }
    }

    /// The item `itemID` of an actionable set, or `nil` when the set is not actionable or has
    /// no such item.
    func item(destination: String, entitySet: String, itemID: String) async throws(StorageError) -> ActionableItem? {
        let json = try await connector.perform("reading an actionable item") { database in
            try await Self.itemJSON(destination: destination, entitySet: entitySet, itemID: itemID, in: database)
        }
        guard let json else { return nil }
        return try Self.item(destination: destination, entitySet: entitySet, itemID: itemID, json: json)
    }

    /// The stored JSON of an actionable item, on a connection already held.
    static func itemJSON(destination: String, entitySet: String, itemID: String, in database: any SQLDatabase) async throws -> String? {
        try await database.raw("""
            SELECT r.data AS data FROM actionable_entity_sets a
            JOIN entity_rows r ON r.destination = a.destination AND r.entity_set = a.entity_set
            WHERE a.destination = \(bind: destination) AND a.entity_set = \(bind: entitySet) AND r.item_id = \(bind: itemID)
            """).first()?.decode(column: "data", as: String.self)
    }

    /// The item whose stored JSON is `json`.
    static func item(destination: String, entitySet: String, itemID: String, json: String) throws(StorageError) -> ActionableItem {
        guard let row = try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8)) else {
            throw .corruptRecord("item \(destination)/\(entitySet)/\(itemID) is not a JSON object")
        }
        return ActionableItem(destination: destination, entitySet: entitySet, itemID: itemID, json: json, row: row)
    }
}
