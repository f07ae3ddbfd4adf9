import Foundation
import SQLKit
import TandemPlatform
import TandemProtocol

/// Widget actions' storage: which entity sets are actionable (and their items), the answers
/// kept for idempotency keys, and the decisions themselves (``ActionStore+Decisions``). The
/// same statements run on SQLite and PostgreSQL.
///
/// ```swift
/// try await database.actions.setActionable(approvals, now: now)   // an ActionableSet
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

    /// The decided items of an actionable set (status no longer `pending`) by id, read inside a
    /// transaction that is already open (the one storing its rows): their decision outlives
    /// the rows a writer sends.
    static func decidedItems(destination: String, entitySet: String, in database: any SQLDatabase) async throws -> [String: [String: JSONValue]] {
        var decided: [String: [String: JSONValue]] = [:]
        for row in try await database.raw("""
            SELECT item_id, data FROM entity_rows
            WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet) AND item_id IS NOT NULL
            """).all() {
            let data = try row.decode(column: "data", as: String.self)
            guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: Data(data.utf8)),
                  case .string(let status)? = fields[ItemActionRules.statusField], status != ItemActionRules.pendingStatus
            else { continue }
            decided[try row.decode(column: "item_id", as: String.self)] = fields
        }
        return decided
    }

    /// The id field of an actionable set, or `nil` when the set is not actionable.
    func idField(destination: String, entitySet: String) async throws(StorageError) -> String? {
        try await connector.perform("reading an actionable entity set") { database in
            try await Self.idField(destination: destination, entitySet: entitySet, in: database)
        }
    }

    /// Makes an entity set actionable under `set`'s rules (or changes them), and prepares the
    /// rows it already holds (``ActionableRows``) in the same transaction; the set's version
    /// moves when they change. A set that does not exist yet is prepared when its rows are first
    /// written.
    ///
    /// - Returns: Whether stored rows changed.
    /// - Throws: ``StorageError/invalidRecord(_:)`` when a stored row has no id, or two the same;
    ///   nothing is changed then.
    @discardableResult
    func setActionable(_ set: ActionableSet, now: Timestamp) async throws(StorageError) -> Bool {
        let (destination, entitySet) = (set.destination, set.entitySet)
        return try await connector.performTransaction("making \(destination)/\(entitySet) actionable") { database in
            try await database.raw("""
                INSERT INTO actionable_entity_sets
                    (destination, entity_set, id_field, created_at, apps, approvers, requester_field, step_up_above, amount_field)
                VALUES (\(bind: destination), \(bind: entitySet), \(bind: set.idField), \(bind: now.milliseconds),
                        \(bind: set.apps.sorted().joined(separator: " ")), \(bind: set.approvers?.stored), \(bind: set.requesterField),
                        \(bind: ActionPolicyDocument.text(of: set.stepUp.stepUpAbove)), \(bind: set.stepUp.amountField))
                ON CONFLICT (destination, entity_set) DO UPDATE
                SET id_field = excluded.id_field, apps = excluded.apps, approvers = excluded.approvers,
                    requester_field = excluded.requester_field, step_up_above = excluded.step_up_above, amount_field = excluded.amount_field
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

    /// The rules of the actionable set `entitySet` of `destination`, or `nil` when it is not
    /// actionable.
    func actionableSet(destination: String, entitySet: String) async throws(StorageError) -> ActionableSet? {
        try await sets(where: "WHERE destination = \(bind: destination) AND entity_set = \(bind: entitySet)").first
    }

    /// The rules of every actionable set whose items the app `clientID` may act on.
    func actionableSets(forApp clientID: String) async throws(StorageError) -> [ActionableSet] {
        try await sets(where: "").filter { $0.apps.contains(clientID) }
    }

    private func sets(where condition: SQLQueryString) async throws(StorageError) -> [ActionableSet] {
        let rows = try await connector.perform("reading actionable entity sets") { database in
            try await database.raw("""
                SELECT destination, entity_set, id_field, apps, approvers, requester_field, step_up_above, amount_field
                FROM actionable_entity_sets \(condition) ORDER BY destination, entity_set
                """).all()
        }
        do {
            return try rows.map { row in
                let threshold = try row.decode(column: "step_up_above", as: String.self)
                guard let stepUpAbove = ActionPolicyDocument.decimal(threshold) else {
                    throw StorageError.corruptRecord("an actionable set's step_up_above is \(threshold.debugDescription)")
                }
                let approvers = try row.decode(column: "approvers", as: String?.self)
                return ActionableSet(
                    destination: try row.decode(column: "destination", as: String.self),
                    entitySet: try row.decode(column: "entity_set", as: String.self),
                    idField: try row.decode(column: "id_field", as: String.self),
                    apps: Set(try row.decode(column: "apps", as: String.self).split(separator: " ").map(String.init)),
                    approvers: approvers.flatMap(ApproverRule.init(stored:)),
                    requesterField: try row.decode(column: "requester_field", as: String?.self),
                    stepUp: ActionPolicyDocument(stepUpAbove: stepUpAbove, amountField: try row.decode(column: "amount_field", as: String.self)))
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .corruptRecord("actionable_entity_sets: \(error)")
        }
    }

    /// The item at `address` of an actionable set, or `nil` when the set is not actionable or
    /// has no such item.
    func item(at address: ItemAddress) async throws(StorageError) -> ActionableItem? {
        let json = try await connector.perform("reading an actionable item") { database in
            try await Self.itemJSON(at: address, in: database)
        }
        guard let json else { return nil }
        return try Self.item(at: address, json: json)
    }

    /// The stored JSON of an actionable item, on a connection already held.
    static func itemJSON(at address: ItemAddress, in database: any SQLDatabase) async throws -> String? {
        try await database.raw("""
            SELECT r.data AS data FROM actionable_entity_sets a
            JOIN entity_rows r ON r.destination = a.destination AND r.entity_set = a.entity_set
            WHERE a.destination = \(bind: address.destination) AND a.entity_set = \(bind: address.entitySet)
              AND r.item_id = \(bind: address.item)
            """).first()?.decode(column: "data", as: String.self)
    }

    /// The item whose stored JSON is `json`.
    static func item(at address: ItemAddress, json: String) throws(StorageError) -> ActionableItem {
        guard let row = try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8)) else {
            throw .corruptRecord("item \(address) is not a JSON object")
        }
        return ActionableItem(address: address, json: json, row: row)
    }
}
