/// A test could not set up what it needs; the message says what to do.
public struct TestSetupError: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public let description: String

    /// Creates an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}
