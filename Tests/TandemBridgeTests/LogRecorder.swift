import Logging
import Synchronization
@testable import TandemBridge

/// Keeps every log line, so tests can check that a skipped record was reported.
final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing into this recorder.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    /// Every line so far: the message followed by its metadata.
    var messages: [String] { lines.withLock { $0 } }

    /// Whether some one line contains every one of `parts`.
    func logged(_ parts: String...) -> Bool { messages.contains { line in parts.allSatisfy { line.contains($0) } } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let details = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            recorder.append("\(event.message) \(details)")
        }
    }
}

extension TemporaryContainer {
    /// A container over the same directory that logs into `recorder`.
    func open(logger recorder: LogRecorder) throws -> SharedContainer {
        try SharedContainer(directory: directory, logger: recorder.logger)
    }
}
