import Crypto
import Foundation
import SQLKit
import TandemPlatform

/// The business data behind the resource endpoints: destinations, their entity sets, and each
/// set's rows as JSON objects in a stable order.
///
/// The same statements run on SQLite and PostgreSQL. A set's rows are replaced as a whole, in
/// one transaction, so a reader never sees half a set.
///
/// ```swift
/// try await database.businessData.replaceEntitySet(destination: "sales", title: "Sales (demo)", name: "Customers",
///                                                  rows: [#"{"CustomerID":"C0001"}"#], now: Timestamp(clock.now))
/// let page = try await database.businessData.entityPage(destination: "sales", entitySet: "Customers", offset: 0, limit: 50)
/// ```
struct BusinessDataStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Rows per `INSERT` when an entity set is replaced: few statements, far below either
    /// database's limit on bound parameters.
    static let rowsPerInsert = 200

    /// Every destination with its entity sets, sorted by name.
    ///
    /// One query over destinations and their sets; sorted here, so the order is the same whatever
    /// the database's collation.
    func destinations() async throws(StorageError) -> [DestinationSummary] {
        let rows = try await connector.perform("listing destinations") { database in
            try await database.raw("""
                SELECT d.name AS destination, d.title AS title, s.name AS entity_set, s.row_count AS row_count, s.updated_at AS updated_at
                FROM destinations d LEFT JOIN entity_sets s ON s.destination = d.name
                """).all()
        }
        var byName: [String: DestinationSummary] = [:]
        do {
            for row in rows {
                let name = try row.decode(column: "destination", as: String.self)
                let title = try row.decode(column: "title", as: String.self)
                var destination = byName[name] ?? DestinationSummary(name: name, title: title, entitySets: [])
                if let set = try row.decode(column: "entity_set", as: String?.self) {
                    destination.entitySets.append(EntitySetSummary(
                        name: set,
                        rowCount: try row.decode(column: "row_count", as: Int.self),
                        updatedAt: Timestamp(milliseconds: try row.decode(column: "updated_at", as: Int64.self))))
                }
                byName[name] = destination
            }
        } catch {
            throw .corruptRecord("destinations: \(error)")
        }
        return byName.values
            .map { destination in
                var sorted = destination
                sorted.entitySets.sort { $0.name < $1.name }
                return sorted
            }
            .sorted { $0.name < $1.name }
    }

    /// Whether a destination with this name exists.
    func destinationExists(_ name: String) async throws(StorageError) -> Bool {
        try await connector.perform("reading a destination") { database in
            try await database.raw("SELECT name FROM destinations WHERE name = \(bind: name)").first() != nil
        }
    }

    /// A page of an entity set, read in one query.
    ///
    /// - Parameters:
    ///   - destination: The destination's name.
    ///   - entitySet: The entity set's name.
    ///   - offset: The position of the first row (0-based); past the end gives an empty page.
    ///   - limit: The most rows to return.
    /// - Returns: The page, or `nil` when the destination or the entity set does not exist.
    ///
    /// One query: the set's row count joined with the rows whose position is in
    /// `[offset, offset + limit)`. An existing set with no rows in range yields one row whose
    /// `data` is NULL; an unknown set yields none.
    func entityPage(destination: String, entitySet: String, offset: Int, limit: Int) async throws(StorageError) -> EntityPage? {
        let lower = Int64(max(offset, 0))
        let (sum, overflow) = lower.addingReportingOverflow(Int64(max(limit, 0)))
        let upper = overflow ? Int64.max : sum
        let rows = try await connector.perform("reading an entity page") { database in
            try await database.raw("""
                SELECT s.row_count AS row_count, s.content_hash AS content_hash, r.data AS data
                FROM entity_sets s
                LEFT JOIN entity_rows r ON r.destination = s.destination AND r.entity_set = s.name
                    AND r.position >= \(bind: lower) AND r.position < \(bind: upper)
                WHERE s.destination = \(bind: destination) AND s.name = \(bind: entitySet)
                ORDER BY r.position
                """).all()
        }
        guard let first = rows.first else { return nil }
        do {
            return EntityPage(
                total: try first.decode(column: "row_count", as: Int.self),
                rows: try rows.compactMap { try $0.decode(column: "data", as: String?.self) },
                version: try first.decode(column: "content_hash", as: String.self))
        } catch {
            throw .corruptRecord("entity set \(destination)/\(entitySet): \(error)")
        }
    }

    /// An entity set's version: a hash of its rows that changes whenever they do, read with one
    /// primary-key lookup. `nil` when the destination or the entity set does not exist.
    func entitySetVersion(destination: String, entitySet: String) async throws(StorageError) -> String? {
        try await connector.perform("reading an entity set's version") { database in
            try await database.raw("""
                SELECT content_hash FROM entity_sets WHERE destination = \(bind: destination) AND name = \(bind: entitySet)
                """).first()?.decode(column: "content_hash", as: String.self)
        }
    }

    /// Creates or replaces an entity set's rows, creating its destination if needed, in one
    /// transaction. Nothing is written when the rows are identical to those stored; when they
    /// differ, the change feed (``ChangeFeedStore``) gets a row in the same transaction.
    ///
    /// - Parameters:
    ///   - destination: The destination's name.
    ///   - title: The destination's title (updated when it differs).
    ///   - name: The entity set's name.
    ///   - rows: Each row as the JSON text of an object, stored verbatim at positions 0, 1, 2, …
    ///     (in an actionable set, as ``ActionableRows`` prepares them).
    ///   - now: The time recorded as the set's update time.
    /// - Returns: `true` when something was written, `false` when the stored set was already identical.
    /// - Throws: ``StorageError/invalidRecord(_:)`` when the set is actionable and a row has no
    ///   id, or two the same.
    @discardableResult
    func replaceEntitySet(destination: String, title: String, name: String, rows: [String], now: Timestamp) async throws(StorageError) -> Bool {
        try await replace(destination: destination, title: title, name: name, rows: rows, now: now).changed
    }

    /// ``replaceEntitySet(destination:title:name:rows:now:)``, reporting the set's version (its
    /// content hash) as now stored, changed or not, to tell a writer.
    func replace(
        destination: String, title: String, name: String, rows: [String], now: Timestamp
    ) async throws(StorageError) -> EntitySetReplacement {
        try await connector.performTransaction("replacing entity set \(destination)/\(name)") { database in
            try await Self.store(rows, destination: destination, title: title, name: name, now: now, in: database)
        }
    }

    /// ``replace(destination:title:name:rows:now:)`` if `precondition` holds for the set as
    /// stored, checked in the same transaction.
    ///
    /// - Returns: The replacement, or `nil` with the set's current version (`nil` when there is
    ///   no such set) when the precondition does not hold; nothing is written then.
    func replace(
        destination: String, title: String, name: String, rows: [String], now: Timestamp, precondition: EntitySetPrecondition
    ) async throws(StorageError) -> (replacement: EntitySetReplacement?, currentVersion: String?) {
        try await connector.performTransaction("replacing entity set \(destination)/\(name)") { database in
            let current = try await database.raw("""
                SELECT content_hash FROM entity_sets WHERE destination = \(bind: destination) AND name = \(bind: name)
                """).first()?.decode(column: "content_hash", as: String.self)
            guard precondition.holds(forVersion: current) else { return (nil, current) }
            let replacement = try await Self.store(rows, destination: destination, title: title, name: name, now: now, in: database)
            return (replacement, replacement.version)
        }
    }

    /// Stores `rows` as the set's rows inside a transaction that is already open: what
    /// ``replace(destination:title:name:rows:now:)`` does, and what declaring a set actionable
    /// (``ActionStore/setActionable(_:now:)``) does to its rows.
    ///
    /// Compares the stored content hash first; otherwise upserts the destination and the set
    /// (which, on PostgreSQL, locks the set's row until commit, so concurrent replacements
    /// queue), deletes the old rows and inserts the new ones in a few multi-row statements.
    /// A backend destination's name is refused (``StorageError/invalidRecord(_:)``).
    static func store(
        _ rows: [String], destination: String, title: String, name: String, now: Timestamp, in database: any SQLDatabase
    ) async throws -> EntitySetReplacement {
        let prepared: [(itemID: String?, json: String)]
        if let idField = try await ActionStore.idField(destination: destination, entitySet: name, in: database) {
            let decided = try await ActionStore.decidedItems(destination: destination, entitySet: name, in: database)
            do {
                prepared = try ActionableRows.prepare(rows, idField: idField, decided: decided).map { ($0.itemID, $0.json) }
            } catch {
                throw StorageError.invalidRecord("\(destination)/\(name): \(error)")
            }
        } else {
            prepared = rows.map { (nil, $0) }
        }
        let hash = contentHash(of: prepared.map(\.json))
        let unchanged = EntitySetReplacement(
            destination: destination, entitySet: name, rowCount: prepared.count, version: hash, changed: false)
        let stored = try await database.raw("""
            SELECT d.title AS title, s.content_hash AS content_hash
            FROM destinations d LEFT JOIN entity_sets s ON s.destination = d.name AND s.name = \(bind: name)
            WHERE d.name = \(bind: destination)
            """).first()
        if stored == nil,
            try await database.raw("SELECT name FROM backend_destinations WHERE name = \(bind: destination)").first() != nil
        {
            // Only a new stored destination can collide: saving a backend one refuses a stored name.
            throw StorageError.invalidRecord("\(destination) is a backend destination: its data is read from the backend, not written here")
        }
        let storedHash = try stored?.decode(column: "content_hash", as: String?.self)
        if let stored, try stored.decode(column: "title", as: String.self) == title, storedHash == hash {
            return unchanged
        }
        try await database.raw("""
            INSERT INTO destinations (name, title, created_at) VALUES (\(bind: destination), \(bind: title), \(bind: now.milliseconds))
            ON CONFLICT (name) DO UPDATE SET title = excluded.title
            """).run()
        try await database.raw("""
            INSERT INTO entity_sets (destination, name, row_count, content_hash, updated_at)
            VALUES (\(bind: destination), \(bind: name), \(bind: Int64(prepared.count)), \(bind: hash), \(bind: now.milliseconds))
            ON CONFLICT (destination, name) DO UPDATE
            SET row_count = excluded.row_count, content_hash = excluded.content_hash, updated_at = excluded.updated_at
            """).run()
        try await database.raw("""
            DELETE FROM entity_rows WHERE destination = \(bind: destination) AND entity_set = \(bind: name)
            """).run()
        var start = 0
        while start < prepared.count {
            let end = min(start + rowsPerInsert, prepared.count)
            let values = (start..<end).map { position -> SQLQueryString in
                "(\(bind: destination), \(bind: name), \(bind: Int64(position)), \(bind: prepared[position].json), \(bind: prepared[position].itemID))"
            }.joined(separator: ", ")
            try await database.raw("INSERT INTO entity_rows (destination, entity_set, position, data, item_id) VALUES \(values)").run()
            start = end
        }
        if storedHash != hash {
            try await recordChange(
                destination: destination, entitySet: name, version: hash, rows: prepared.map(\.json), actionable: prepared.contains { $0.itemID != nil },
                now: now, in: database)
        }
        var written = unchanged
        written.changed = true
        return written
    }

    /// Appends the change of a set to `version` (now `rows`, of an `actionable` set or not) to
    /// the change feed and owes its pushes, inside the transaction that changed the rows.
    static func recordChange(
        destination: String, entitySet: String, version: String, rows: [String], actionable: Bool, now: Timestamp, in database: any SQLDatabase
    ) async throws {
        let change = EntitySetChange(
            id: SortableID.next(), destination: destination, entitySet: entitySet, version: version, rowCount: rows.count, changedAt: now)
        try await ChangeFeedStore.append(change, in: database)
        try await PushOutboxStore.enqueue(change, rows: rows, actionable: actionable, in: database)
    }

    /// SHA-256 over the rows, each prefixed by its length so that no two row lists collide by
    /// concatenation.
    static func contentHash(of rows: [String]) -> String {
        var hasher = SHA256()
        for row in rows {
            let bytes = Data(row.utf8)
            hasher.update(data: Data("\(bytes.count):".utf8))
            hasher.update(data: bytes)
        }
        return Hex.encode(hasher.finalize())
    }
}
