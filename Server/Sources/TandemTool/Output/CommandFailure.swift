/// A failure of the command line itself (missing input, missing item), shown to the user as
/// `Error: <message>` with exit status 1.
public struct CommandFailure: Error, CustomStringConvertible {
    /// One line saying what went wrong and, where useful, what to do.
    public let message: String

    /// Creates a failure with a one-line message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
