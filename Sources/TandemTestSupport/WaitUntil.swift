import Foundation

/// Returns once `condition` holds (an event another process causes: a line printed, a row
/// written, a request counted), looking every `poll`; throws after `timeout`. The timeout is a
/// generous bound for a busy machine, never the expected wait: a test waits for what happens,
/// not for a time it guessed.
///
/// ```swift
/// try await waitUntil("the host is running") { host.output.contains("\"host\":\"running\"") }
/// ```
///
/// - Throws: `TestSetupError` naming `event` (and `details`, when given) after `timeout`; what
///   `condition` throws.
public func waitUntil(
    _ event: String, timeout: Duration = .seconds(120), poll: Duration = .milliseconds(20),
    details: @autoclosure () -> String = "", _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            let more = details()
            throw TestSetupError("\(event) did not happen within \(timeout)\(more.isEmpty ? "" : ": \(more)")")
        }
        try await Task.sleep(for: poll)
    }
}
