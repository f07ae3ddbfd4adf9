/// Size limits a `DeepLinkRouter` (TandemHost) enforces, so a crafted URL cannot make the host app
/// allocate or log without bound. Links that ``WidgetLink`` builds stay well inside them.
public struct DeepLinkLimits: Hashable, Sendable {
    /// The longest URL accepted, in UTF-8 bytes: 4096.
    public var maximumURLLength: Int
    /// The most query parameters accepted: 16.
    public var maximumParameterCount: Int
    /// The longest `config=` value (base64url), in characters: 2048, about 1.5 KB of JSON.
    public var maximumConfigurationLength: Int
    /// The longest value of any other parameter, once decoded, in UTF-8 bytes: 256.
    public var maximumValueLength: Int

    /// Limits with the documented defaults; pass a value to change one.
    public init(
        maximumURLLength: Int = 4_096,
        maximumParameterCount: Int = 16,
        maximumConfigurationLength: Int = 2_048,
        maximumValueLength: Int = 256
    ) {
        self.maximumURLLength = maximumURLLength
        self.maximumParameterCount = maximumParameterCount
        self.maximumConfigurationLength = maximumConfigurationLength
        self.maximumValueLength = maximumValueLength
    }
}
