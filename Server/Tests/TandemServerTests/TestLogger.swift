import Logging

/// The logger tests hand to storage: silent, so test output shows only test results.
enum TestLogger {
    /// A logger that discards everything.
    static let quiet = Logger(label: "tandem.test") { _ in SwiftLogNoOpLogHandler() }
}
