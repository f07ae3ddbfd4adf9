#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// One page of an entity set as the server sends it
/// (`{"items":[{…}],"limit":L,"next":…,"offset":O,"total":N}`), each field of a row read as
/// text, ready to become ``WidgetRow``s.
///
/// ```swift
/// let page = try EntitySetPage(json: snapshot.payload)
/// let rows = page.rows(keyField: nil, valueField: "GrossAmount", entitySet: "SalesOrders")
/// ```
public struct EntitySetPage: Hashable, Sendable {
    /// The rows, each field as text: strings as they are, numbers and booleans as JSON writes
    /// them, `null` and nested values as an empty string.
    public var items: [[String: String]]
    /// How many rows the entity set holds, when the server said.
    public var total: Int?
    /// When the server read these rows from a customer's backend that is down now (the page
    /// was marked `"stale":true`): the rows are that old. Nil for a page read fresh.
    public var staleSince: Date?

    /// The page `json` holds.
    ///
    /// - Throws: ``DataWidgetError/undecodablePage(reason:)`` when it is not a JSON object with
    ///   an `items` array of objects.
    public init(json: Data) throws(DataWidgetError) {
        do {
            let body = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: Field]>.self, from: json)
            items = body.items.map { $0.mapValues(\.text) }
            total = body.total
            staleSince = body.stale == true ? body.fetchedAt.flatMap { ISO8601Time.date(from: $0) } : nil
        } catch {
            throw .undecodablePage(reason: "\(type(of: error)) \(String(describing: error).prefix(120))")
        }
    }

    /// A page of `items`.
    public init(items: [[String: String]], total: Int? = nil) {
        self.items = items
        self.total = total
    }

    /// The rows as a widget shows them: `keyField` on the left, `valueField` on the right, a
    /// missing field as "–".
    ///
    /// Without a choice, the key is the entity's identifier (`SalesOrderID` for `SalesOrders`,
    /// else the first field ending in `ID`, else the first field) and the value its name (the
    /// first field ending in `Name` or called `Name`, else the first other field), fields taken
    /// in alphabetical order so the choice is the same for every row.
    ///
    /// - Parameters:
    ///   - keyField: The field for the key, or `nil` for the default.
    ///   - valueField: The field for the value, or `nil` for the default.
    ///   - entitySet: The entity set's name, to find its identifier field.
    ///   - destination: The destination's name; when given, each row of an actionable set (an
    ///     item with an `ETag` field) carries its ``WidgetRowAction``.
    ///   - policy: The app's action policy, to mark the rows whose amount needs the app.
    ///
    /// A page read from a customer's backend (``isBackendPage``) has the server's row model
    /// instead: the key is its `title` (else `id`), the value its `amount` with its `currency`
    /// (else `value`, `subtitle` or `status`), and an item with an `etag` is actionable while its
    /// `status` is `pending`.
    public func rows(
        keyField: String?, valueField: String?, entitySet: String, destination: String? = nil, policy: ActionPolicyDocument = .default
    ) -> [WidgetRow] {
        if isBackendPage {
            return backendRows(keyField: keyField, valueField: valueField, entitySet: entitySet, destination: destination, policy: policy)
        }
        let fields = Set(items.flatMap(\.keys)).sorted()
        let identifier = Self.identifierField(in: fields, entitySet: entitySet)
        let key = keyField ?? identifier
        let value = valueField ?? fields.first { $0 != key && $0.hasSuffix("Name") } ?? fields.first { $0 != key } ?? key
        return items.map { item in
            var row = WidgetRow(key: key.flatMap { item[$0] } ?? "–", value: value.flatMap { item[$0] } ?? "–")
            if let destination {
                row.action = identifier.flatMap { identifier in
                    Self.action(
                        of: item, fields: ActionFields(id: identifier, etag: ItemActionRules.etagField, status: ItemActionRules.statusField, amount: policy.amountField),
                        destination: destination, entitySet: entitySet, policy: policy)
                }
            }
            return row
        }
    }

    /// The item behind `item` when its set is actionable: it has an id and an `ETag` (which the
    /// server sets only on actionable sets); it offers its actions while its status is pending.
    /// Which fields of a row name an actionable item: the stored sets' (`…ID`, `ETag`, `Status`,
    /// the policy's amount field) or a backend page's (``backend``).
    private struct ActionFields {
        var id: String
        var etag: String
        var status: String
        var amount: String

        static let backend = ActionFields(id: "id", etag: "etag", status: "status", amount: "amount")
    }

    private static func action(
        of item: [String: String], fields: ActionFields, destination: String, entitySet: String, policy: ActionPolicyDocument
    ) -> WidgetRowAction? {
        guard let id = item[fields.id], !id.isEmpty, let etag = item[fields.etag], !etag.isEmpty else { return nil }
        let pending = item[fields.status] == ItemActionRules.pendingStatus
        let amount = item[fields.amount]
        return WidgetRowAction(
            ItemAddress(destination: destination, entitySet: entitySet, item: id), etag: etag, amount: amount,
            actions: pending ? ItemAction.allCases : [],
            needsApp: policy.requiresStepUp(amount: amount.flatMap { Decimal(string: $0) }))
    }

    /// The fields of a row the server read from a customer's backend (its row model: every
    /// value text, amounts exact, dates ISO 8601).
    public static let backendFields: Set<String> = ["address", "amount", "currency", "date", "etag", "id", "status", "subtitle", "title", "value"]

    /// Whether every row has an `id` and only the fields of the server's backend row model.
    public var isBackendPage: Bool {
        !items.isEmpty && items.allSatisfy { $0["id"] != nil && $0.keys.allSatisfy(Self.backendFields.contains) }
    }

    private func backendRows(
        keyField: String?, valueField: String?, entitySet: String, destination: String?, policy: ActionPolicyDocument
    ) -> [WidgetRow] {
        items.map { item in
            let amount = item["amount"].map { amount in item["currency"].map { amount + " " + $0 } ?? amount }
            // A chosen field shows as it is ("–" when the row lacks it); otherwise the model's.
            let key = keyField.map { item[$0] ?? "–" } ?? item["title"] ?? item["id"] ?? "–"
            let value = valueField.map { item[$0] ?? "–" } ?? amount ?? item["value"] ?? item["subtitle"] ?? item["status"] ?? "–"
            var row = WidgetRow(key: key, value: value)
            if let destination {
                row.action = Self.action(of: item, fields: .backend, destination: destination, entitySet: entitySet, policy: policy)
            }
            return row
        }
    }

    private static func identifierField(in fields: [String], entitySet: String) -> String? {
        let singular = entitySet.hasSuffix("s") ? String(entitySet.dropLast()) : entitySet
        if fields.contains(singular + "ID") { return singular + "ID" }
        return fields.first { $0.hasSuffix("ID") } ?? fields.first
    }

    // MARK: - Decoding

    /// One field of a row, as text.
    private struct Field: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let integer = try? container.decode(Int.self) {
                text = String(integer)
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
            } else if let flag = try? container.decode(Bool.self) {
                text = String(flag)
            } else {
                text = ""
            }
        }
    }
}
