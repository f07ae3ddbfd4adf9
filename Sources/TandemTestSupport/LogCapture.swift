import Logging
import TandemPlatform

/// Keeps every line logged through ``logger``, so a test can check what was reported and that
/// no secret was.
///
/// Each line is the level, the message, and the metadata (the logger's and the event's) as
/// sorted `key=value` pairs:
///
/// ```swift
/// let capture = LogCapture()
/// SharedContainer(directory: directory, logger: capture.logger)
/// #expect(capture.logged("ignoring a foreign file", "path=requests/notes.txt"))
/// ```
public final class LogCapture: Sendable {
    private let storage = Locked<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// A logger at level `trace` writing into this capture.
    public var logger: Logger {
        Logger(label: "tandem.test") { _ in Handler(capture: self) }
    }

    /// Every line so far, oldest first.
    public var lines: [String] { storage.withLock { $0 } }

    /// Whether some one line contains every one of `parts`.
    public func logged(_ parts: String...) -> Bool {
        lines.contains { line in parts.allSatisfy { line.contains($0) } }
    }

    /// A logger that keeps nothing, for code under test whose logs the test does not read.
    public static let discarding = Logger(label: "tandem.test") { _ in SwiftLogNoOpLogHandler() }

    fileprivate func append(_ line: String) { storage.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(rendered)")
        }
    }
}
