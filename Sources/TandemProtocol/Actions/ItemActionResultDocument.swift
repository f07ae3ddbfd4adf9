/// The answer of a successful item action (``APIPath/itemAction(_:action:)``):
/// which item was decided how, its new status and ETag, and when. The server encodes it, the
/// SDK decodes it; a replayed answer (``ItemActionRules/replayedHeader``) is the same document.
///
/// ```json
/// {"action":"approve","decided_at":"2026-03-14T09:30:00.000Z","destination":"sales",
///  "entity_set":"Approvals","etag":"\"9c1e…\"","item":"PR-1001","status":"approved"}
/// ```
public struct ItemActionResultDocument: Codable, Equatable, Sendable {
    /// The destination's name.
    public var destination: String
    /// The entity set's name.
    public var entitySet: String
    /// The item's id (the value of the set's id field).
    public var item: String
    /// What was done.
    public var action: ItemAction
    /// The item's status now (``ItemAction/decidedStatus``).
    public var status: String
    /// The item's new ETag (also the response's `ETag` header).
    public var etag: String
    /// When it was decided, ISO 8601 (``ISO8601Time``).
    public var decidedAt: String

    /// The item decided.
    public var address: ItemAddress { ItemAddress(destination: destination, entitySet: entitySet, item: item) }

    /// A result document.
    public init(_ address: ItemAddress, action: ItemAction, status: String, etag: String, decidedAt: String) {
        destination = address.destination
        entitySet = address.entitySet
        item = address.item
        self.action = action
        self.status = status
        self.etag = etag
        self.decidedAt = decidedAt
    }

    enum CodingKeys: String, CodingKey {
        case destination, item, action, status, etag
        case entitySet = "entity_set"
        case decidedAt = "decided_at"
    }
}
