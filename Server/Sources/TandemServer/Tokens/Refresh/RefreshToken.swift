/// A refresh token just issued: the only moment its plain value exists on the server.
///
/// Its `description` hides the value, so interpolating it into a log line leaks nothing.
public struct RefreshToken: Sendable, Equatable, CustomStringConvertible {
    /// The secret to hand to the client (`tdr_…`).
    public let value: String
    /// The family it belongs to.
    public let familyID: String

    /// Wraps an issued token.
    public init(value: String, familyID: String) {
        self.value = value
        self.familyID = familyID
    }

    /// The family id only: the value is redacted so a log line cannot leak it.
    public var description: String { "RefreshToken(family: \(familyID), value: redacted)" }
}
