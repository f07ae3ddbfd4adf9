import Foundation
import TandemProtocol

/// An actionable entity set and its rules, which are the data's own and hold whichever app a
/// user signs in with: the field naming its items, the apps whose hosts may act on them, who may
/// decide them (``ApproverRule``), the field naming an item's requester — who may never decide
/// it —, and its step-up policy: above `stepUp`'s threshold a decision needs the user present.
///
/// ```swift
/// let approvals = ActionableSet(
///     destination: "sales", entitySet: "Approvals", idField: "ApprovalID", apps: ["sales-app"],
///     approvers: .group("finance"), requesterField: "Requester",
///     stepUp: ActionPolicyDocument(stepUpAbove: 1000, amountField: "Amount"))
/// try await administration.setActionable(approvals)
/// ```
public struct ActionableSet: Sendable, Hashable {
    /// The destination's name.
    public var destination: String
    /// The entity set's name.
    public var entitySet: String
    /// The row field naming an item (a string unique within the set).
    public var idField: String
    /// The client ids of the apps whose hosts may act on the set's items.
    public var apps: Set<String>
    /// Who may decide an item; `nil`: nobody (a set made actionable before approvers existed,
    /// until an administrator names them).
    public var approvers: ApproverRule?
    /// The row field naming who asked for an item (a username), who may never decide it.
    public var requesterField: String?
    /// When a decision needs the user present: above the threshold in the amount field, or when
    /// the amount cannot be read.
    public var stepUp: ActionPolicyDocument

    /// Creates a set's rules.
    public init(
        destination: String, entitySet: String, idField: String, apps: Set<String>, approvers: ApproverRule?,
        requesterField: String? = nil, stepUp: ActionPolicyDocument = .default
    ) {
        self.destination = destination
        self.entitySet = entitySet
        self.idField = idField
        self.apps = apps
        self.approvers = approvers
        self.requesterField = requesterField
        self.stepUp = stepUp
    }

    /// Why the user `username` may not decide `row`, or `nil` when they may.
    ///
    /// - Parameters:
    ///   - row: The item's fields.
    ///   - username: The deciding user's name.
    ///   - isMember: Whether the user is in a group, for a group rule.
    func refusal(
        deciding row: [String: JSONValue], by username: String, isMember: (String) async throws -> Bool
    ) async rethrows -> String? {
        guard let approvers else { return "\(destination)/\(entitySet) names no approvers" }
        if let requesterField, ApproverRule.names(row[requesterField], username) {
            return "the item was requested by this user: someone else must decide it"
        }
        let allowed: Bool
        switch approvers {
        case .field: allowed = approvers.fieldNames(username, in: row)
        case .group(let group): allowed = try await isMember(group)
        }
        return allowed ? nil : "this user is not among \(approvers) for this item"
    }
}
