/// One name and value of a JSON object, as the object sent them.
public struct BackendJSONMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: BackendJSON

    /// A member named `key` holding `value`.
    public init(key: String, value: BackendJSON) {
        self.key = key
        self.value = value
    }
}
