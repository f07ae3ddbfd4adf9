import Foundation
import TandemProtocol

/// How the items of a backend entity set are decided from widgets: which apps' hosts may act, the
/// backend call of each action, and above which amount a decision needs the user present. Who may
/// decide which item is the backend's own rule: it answers `403` or `404` for anyone else.
///
/// ```json
/// {"apps":["sales-app"],"approve":{"method":"POST","path":"approvals/{id}/approve/"},
///  "reject":{"method":"POST","path":"approvals/{id}/reject/"},"stepUpAbove":"1000.00"}
/// ```
public struct BackendItemActions: Sendable, Hashable, Codable {
    /// The client ids of the apps whose hosts may act on the set's items.
    public var apps: [String]
    /// The call that approves an item.
    public var approve: BackendActionCall
    /// The call that rejects an item.
    public var reject: BackendActionCall
    /// Decimal text: above this amount (the row's mapped `amount`), or when the amount cannot be
    /// read, a decision needs the user present (a step-up proof). Nil: never.
    public var stepUpAbove: String?

    /// A set's actions.
    public init(apps: [String], approve: BackendActionCall, reject: BackendActionCall, stepUpAbove: String? = nil) {
        self.apps = apps
        self.approve = approve
        self.reject = reject
        self.stepUpAbove = stepUpAbove
    }

    /// The threshold as a number, when there is one.
    public var stepUpThreshold: Decimal? {
        stepUpAbove.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    }

    /// Refuses actions of another protocol than `protocolKind`, no apps, an app id or a path
    /// that breaks the rules, a name with characters a URL cannot carry as they are, or a
    /// threshold that is not a non-negative decimal.
    func validate(protocolKind: BackendProtocolKind, entitySet: String) throws(BackendDestinationError) {
        guard !apps.isEmpty, apps.allSatisfy({ URLSafeName.isValid($0) }) else {
            throw .invalidActions(entitySet: entitySet, "name the apps whose hosts may act (client ids)")
        }
        if let stepUpAbove {
            guard stepUpAbove.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil else {
                throw .invalidActions(entitySet: entitySet, "stepUpAbove must be a decimal such as 1000.00")
            }
        }
        for call in [approve, reject] {
            guard call.protocolKinds.contains(protocolKind) else {
                throw .invalidActions(entitySet: entitySet, "a \(protocolKind.rawValue) destination's actions are "
                    + (protocolKind == .rest ? "{method, path}" : protocolKind == .odataV4 ? "{boundAction}" : "{functionImport, parameter}"))
            }
            switch call {
            case .rest(let method, let path):
                guard [.post, .put, .patch].contains(method) else {
                    throw .invalidActions(entitySet: entitySet, "an action's method is POST, PUT or PATCH")
                }
                guard path.contains("{id}") else { throw .invalidActions(entitySet: entitySet, "an action's path names the item with {id}") }
                do {
                    try BackendDestination.checkPath(path.replacingOccurrences(of: "{id}", with: "id"), of: entitySet)
                } catch {
                    throw .invalidActions(entitySet: entitySet, "an action's path must be relative to the base URL, without '..', query or fragment")
                }
            case .boundAction(let name), .functionImport(let name, _):
                guard Self.isODataName(name) else { throw .invalidActions(entitySet: entitySet, "\(name.debugDescription) is not an OData name") }
                if case .functionImport(_, let parameter) = call, !Self.isODataName(parameter) {
                    throw .invalidActions(entitySet: entitySet, "\(parameter.debugDescription) is not an OData parameter name")
                }
            }
        }
    }

    /// Letters, digits, `_` and `.` (a namespace-qualified name), not empty.
    private static func isODataName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2E
        }
    }
}
