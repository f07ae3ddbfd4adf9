import Logging

/// A log handler that keeps every line, message and metadata rendered as text.
struct CapturingLogHandler: LogHandler {
    let lines: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lines.withLock { $0.append("\(event.level) \(event.message) \(rendered)") }
    }

    /// A logger writing into `lines`.
    static func logger(_ lines: Locked<[String]>) -> Logger {
        Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
    }
}
