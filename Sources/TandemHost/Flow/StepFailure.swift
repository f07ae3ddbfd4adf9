/// A step's own failure, when no library error says it better: the step found the app in a
/// state it cannot go on from (no configuration yet, nobody signed in, no extension access).
public struct StepFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is missing and, where useful, what to do.
    public let message: String

    /// Creates a failure with a one-line message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
