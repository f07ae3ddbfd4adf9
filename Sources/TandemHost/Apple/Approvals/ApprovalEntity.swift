#if canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import Foundation
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel

/// An approval awaiting the user's decision, as Siri, Spotlight and the Shortcuts app offer it
/// in "Approve ⟨item⟩" (``ApproveItemIntent``).
///
/// The approvals come from the app: ``Query`` asks the `approvals` closure the app installed
/// with ``ApprovalShortcuts/install(_:)`` (its list of pending approvals, fetched with its own
/// grant), so the system never offers an item the app does not show. The ETag is the one that
/// list had: an item changed since then ends as a conflict, not as an approval of something the
/// user did not see.
@available(iOS 17.0, *)
public struct ApprovalEntity: AppEntity {
    /// The destination, such as `sales`.
    public var destination: String
    /// The entity set, such as `Approvals`.
    public var entitySet: String
    /// The item's id in its set, such as `PR-1003`.
    public var item: String
    /// The item's `ETag` as listed.
    public var etag: String
    /// The item's amount as text ("1,250.00 EUR"), if it has one.
    public var amount: String?
    /// What Siri calls it: "PR-1003 · Laptops for the Berlin office".
    public var title: String

    /// An approval of the item at `address`, listed with `etag`; the title defaults to the
    /// item's id.
    public init(_ address: ItemAddress, etag: String, amount: String? = nil, title: String? = nil) {
        destination = address.destination
        entitySet = address.entitySet
        item = address.item
        self.etag = etag
        self.amount = amount
        self.title = title ?? address.item
    }

    /// The approval a widget row's item describes.
    public init(_ action: WidgetRowAction, title: String? = nil) {
        self.init(action.address, etag: action.etag, amount: action.amount, title: title)
    }

    /// The item to approve.
    public var address: ItemAddress { ItemAddress(destination: destination, entitySet: entitySet, item: item) }

    /// The identifier: the id the approval's action request would have (a digest of the item
    /// and its ETag), so an item that changed since the system learnt it no longer resolves.
    public var id: String {
        ActionRequest.id(address, action: .approve, etag: etag)
    }

    /// "Approval".
    public static var typeDisplayRepresentation: TypeDisplayRepresentation { "Approval" }

    /// The title, and the amount when known.
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(title)", subtitle: amount.map { "\($0)" })
    }

    /// The query the system asks for the approvals and to resolve stored identifiers.
    public static var defaultQuery: Query { Query() }

    // MARK: - Query

    /// The approvals the app lists now; the system creates it with `init()`.
    public struct Query: EntityQuery {
        /// A query over the installed approvals.
        public init() {}

        /// The approvals `identifiers` name that are still pending, unchanged.
        ///
        /// - Throws: ``ApprovalShortcutsError``.
        public func entities(for identifiers: [String]) async throws -> [ApprovalEntity] {
            let wanted = Set(identifiers)
            return try await Self.listed().filter { wanted.contains($0.id) }
        }

        /// Every approval the app lists now.
        ///
        /// - Throws: ``ApprovalShortcutsError``.
        public func suggestedEntities() async throws -> [ApprovalEntity] {
            try await Self.listed()
        }

        private static func listed() async throws(ApprovalShortcutsError) -> [ApprovalEntity] {
            let configuration = try ApprovalShortcuts.configuration()
            do {
                return try await configuration.approvals()
            } catch {
                throw .approvalsUnavailable(reason: "\(error)")
            }
        }
    }
}
#endif
