/// A decision on an item of an actionable entity set (``APIPath/itemAction(_:action:)``):
/// approve or reject it. The path segment is the raw value.
///
/// ```swift
/// let path = APIPath.itemAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1001"), action: .approve)
/// // after it, the row's Status is ItemAction.approve.decidedStatus: "approved"
/// ```
public enum ItemAction: String, Codable, CaseIterable, Sendable {
    /// Approve the item.
    case approve
    /// Reject the item.
    case reject

    /// The `Status` the item has once decided: `approved` or `rejected`.
    public var decidedStatus: String {
        switch self {
        case .approve: "approved"
        case .reject: "rejected"
        }
    }
}
