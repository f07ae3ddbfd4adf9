import Logging
import Synchronization

/// A `LogHandler` that keeps every message, with its metadata, as text, at every level.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) {
            lines.withLock { $0.append(line) }
        }

        var text: String { lines.withLock { $0.joined(separator: "\n") } }
        var count: Int { lines.withLock { $0.count } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let error = event.error.map { " error=\($0)" } ?? ""
        store.append("\(event.level) \(event.message) \(fields)\(error)")
    }

    /// A logger at `.trace` that writes into a new store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "test.outbound") { _ in CapturingLogHandler(store: store) }, store)
    }
}
