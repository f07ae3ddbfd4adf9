import TandemProtocol

/// Who may decide the items of an actionable set: a rule of the data, checked at every decision
/// (a user's `actions` scope says only that their app may ask).
///
/// ```swift
/// let byField = ApproverRule.field("Approvers")   // the item names its approvers
/// let byGroup = ApproverRule.group("finance")     // tandem admin set-group --group finance
/// ```
public enum ApproverRule: Sendable, Hashable, CustomStringConvertible {
    /// The item's field of this name names who may decide it: a username, or an array of
    /// usernames.
    case field(String)
    /// The members of the group of this name.
    case group(String)

    /// The rule as stored: `field:NAME` or `group:NAME`.
    var stored: String {
        switch self {
        case .field(let name): "field:" + name
        case .group(let name): "group:" + name
        }
    }

    /// The rule stored as `text`, or `nil` for anything else.
    init?(stored text: String) {
        if text.hasPrefix("field:"), let name = Self.name(text.dropFirst(6)) {
            self = .field(name)
        } else if text.hasPrefix("group:"), let name = Self.name(text.dropFirst(6)) {
            self = .group(name)
        } else {
            return nil
        }
    }

    /// The field's or the group's name.
    public var name: String {
        switch self {
        case .field(let name), .group(let name): name
        }
    }

    /// Whether the name is one a rule may carry (``URLSafeName``: letters, digits, `.`, `_`, `-`).
    public var isValid: Bool { URLSafeName.isValid(name) }

    public var description: String {
        switch self {
        case .field(let name): "the people the item's \(name) field names"
        case .group(let name): "the members of the group \(name)"
        }
    }

    /// Whether `row` names `username` in this rule's field (a string equal to it, or an array
    /// holding it); `false` for a group rule, which the caller checks against the user's groups.
    func fieldNames(_ username: String, in row: [String: JSONValue]) -> Bool {
        guard case .field(let field) = self else { return false }
        return Self.names(row[field], username)
    }

    /// Whether `value` is `username` or an array holding it.
    static func names(_ value: JSONValue?, _ username: String) -> Bool {
        switch value {
        case .string(let name)?: name == username
        case .array(let names)?: names.contains(.string(username))
        default: false
        }
    }

    private static func name(_ text: Substring) -> String? {
        URLSafeName.isValid(String(text)) ? String(text) : nil
    }
}
