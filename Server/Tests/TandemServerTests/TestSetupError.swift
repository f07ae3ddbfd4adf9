/// A test could not set up what it needs; the message says what to do.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
