import Foundation
import TandemTool

/// A barrier between processes, made of files in one directory: each process that reaches round
/// `r` leaves a file there and waits until `expected` processes have. Every process then starts
/// the round holding the tokens the previous round ended with, however unevenly a loaded machine
/// schedules them — which a start time on the wall clock cannot promise.
struct RoundBarrier {
    let directory: URL

    /// Marks this process as arrived at `round` and returns once `expected` processes have.
    ///
    /// - Throws: `CommandFailure` when the others do not arrive within `timeout`.
    func arrive(round: Int, expected: Int, timeout: Duration = .seconds(60)) async throws {
        let prefix = "round-\(round)-"
        try Data().write(to: directory.appendingPathComponent(prefix + UUID().uuidString))
        let deadline = ContinuousClock.now + timeout
        while try FileManager.default.contentsOfDirectory(atPath: directory.path).filter({ $0.hasPrefix(prefix) }).count < expected {
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("round \(round): fewer than \(expected) processes arrived within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
