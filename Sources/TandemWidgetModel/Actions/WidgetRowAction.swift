#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// The business item behind a widget row that can be acted on (an approval awaiting a
/// decision), and the actions it offers: what a button's intent carries to the host.
///
/// ```swift
/// if let action = row.action, action.actions.contains(.approve) {
///     Button(intent: ApproveIntent(target: action)) { Text("Approve") }   // on Apple
/// }
/// ```
public struct WidgetRowAction: Codable, Hashable, Sendable {
    /// The destination, such as `sales`.
    public var destination: String
    /// The entity set, such as `Approvals`.
    public var entitySet: String
    /// The item's id in its set, such as `PR-1003`.
    public var item: String
    /// The item's `ETag` as the row shows it: the action goes through only if it is still current.
    public var etag: String
    /// The item's amount as text, if it has one.
    public var amount: String?
    /// The actions it offers now: both while it awaits a decision, none once decided.
    public var actions: [ItemAction]
    /// Whether the app's policy asks the user to confirm in the app (the amount is above the
    /// step-up threshold): the button opens the app instead of acting in the background.
    public var needsApp: Bool

    /// The item the row shows.
    public var address: ItemAddress { ItemAddress(destination: destination, entitySet: entitySet, item: item) }

    /// The item at `address`, shown with `etag`.
    public init(
        _ address: ItemAddress, etag: String, amount: String? = nil, actions: [ItemAction] = ItemAction.allCases, needsApp: Bool = false
    ) {
        destination = address.destination
        entitySet = address.entitySet
        item = address.item
        self.etag = etag
        self.amount = amount
        self.actions = actions
        self.needsApp = needsApp
    }
}
