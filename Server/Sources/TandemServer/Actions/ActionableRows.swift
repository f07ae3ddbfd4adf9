import Foundation
import TandemProtocol

/// The rows of an actionable entity set as the server stores them: each a JSON object with a
/// string id in the set's id field (unique within the set), a `Status` (`pending` when the
/// writer gave none) and an `ETag` the server computes (``ItemActionRules/itemTag(row:)``); a
/// writer's own `ETag` is replaced. The decision fields are the server's: a writer's
/// `DecidedBy` and `DecidedAt` are dropped, and an item already decided keeps its `Status`,
/// `DecidedBy` and `DecidedAt` whatever a writer sends, so a back office writing the whole set
/// cannot revert a decision or rename who made it.
///
/// ```swift
/// let prepared = try ActionableRows.prepare([#"{"ApprovalID":"PR-1001","Amount":"120.00"}"#], idField: "ApprovalID")
/// // prepared[0].itemID == "PR-1001"; its JSON has "Status":"pending" and "ETag":"\"…\""
/// ```
enum ActionableRows {
    /// A row ready to store: its id and its canonical JSON.
    struct Row: Sendable, Equatable {
        /// The value of the set's id field.
        var itemID: String
        /// The canonical JSON text (keys sorted), with `Status` and `ETag`.
        var json: String
    }

    /// Why rows cannot be stored in an actionable set.
    enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Row `index` is not a JSON object, or has no non-empty string in the id field.
        case missingID(index: Int, idField: String)
        /// Two rows have the same id.
        case duplicateID(String)

        var description: String {
            switch self {
            case .missingID(let index, let idField): "row \(index) has no string \(idField), the id of this actionable entity set"
            case .duplicateID(let id): "two rows have the id \(id.debugDescription)"
            }
        }
    }

    /// `rows` (JSON objects as text) prepared for an actionable set whose id field is `idField`.
    ///
    /// - Parameter decided: The items already decided, by id, as stored: their decision fields
    ///   are kept.
    /// - Throws: ``Refusal`` for a row without a string id, or two rows with the same id.
    static func prepare(_ rows: [String], idField: String, decided: [String: [String: JSONValue]] = [:]) throws(Refusal) -> [Row] {
        var seen = Set<String>()
        var prepared: [Row] = []
        prepared.reserveCapacity(rows.count)
        for (index, text) in rows.enumerated() {
            guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8)),
                  case .string(let id)? = object[idField], !id.isEmpty
            else { throw .missingID(index: index, idField: idField) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
            var row = object
            for field in [ItemActionRules.decidedByField, ItemActionRules.decidedAtField] { row[field] = nil }
            if let kept = decided[id] {
                for field in [ItemActionRules.statusField, ItemActionRules.decidedByField, ItemActionRules.decidedAtField] {
                    row[field] = kept[field]
                }
            }
            if row[ItemActionRules.statusField] == nil { row[ItemActionRules.statusField] = .string(ItemActionRules.pendingStatus) }
            guard let json = try? tagged(row) else { throw .missingID(index: index, idField: idField) }
            prepared.append(Row(itemID: id, json: json))
        }
        return prepared
    }

    /// `row` with its `ETag` set from the rest of it, as canonical JSON text.
    ///
    /// - Throws: An `EncodingError` for a value JSON cannot hold.
    static func tagged(_ row: [String: JSONValue]) throws -> String {
        var row = row
        row[ItemActionRules.etagField] = .string(try ItemActionRules.itemTag(row: row))
        return try canonical(row)
    }

    /// `row` as JSON text with sorted keys and unescaped slashes, as rows are stored.
    static func canonical(_ row: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(row), as: UTF8.self)
    }
}
