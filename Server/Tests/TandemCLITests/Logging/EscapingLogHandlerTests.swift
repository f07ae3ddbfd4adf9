import Logging
import Synchronization
import TandemTool
import Testing

/// The log handler of `tandem serve` and every `tandem` command: values a client chose cannot
/// write a line of their own or hide what they say (security finding 10).
@Suite("Escaped log lines")
struct EscapingLogHandlerTests {
    @Test("a line break or a bidirectional override in a client id, a message or a logger's metadata is escaped")
    func valuesCannotForgeLines() throws {
        let capture = Captured()
        var logger = Logger(label: "test") { _ in EscapingLogHandler(Capturing(captured: capture)) }
        logger[metadataKey: "request\n"] = "id\r\n2026-11-26T00:00:00 info tandem.server: forged"
        logger.info(
            "app \("x\nfake line") created",
            metadata: [
                "client_id": "tandem-demo\n2026-11-26T00:00:00 warning tandem.server: admin signed in",
                "label": .stringConvertible("iPhone\u{202E}elpmaxe"),
                "nested": .array([.dictionary(["k": "a\tb\u{2028}c"])]),
            ])

        let event = try #require(capture.events.first)
        #expect(event.message == "app x\\nfake line created")
        #expect(event.metadata["client_id"] == "tandem-demo\\n2026-11-26T00:00:00 warning tandem.server: admin signed in")
        #expect(event.metadata["label"] == "iPhone\\u{202E}elpmaxe")
        let nested = try #require(event.metadata["nested"])
        #expect(!nested.contains("\t") && nested.contains("u{2028}"), "\(nested.debugDescription)")
        #expect(capture.handlerMetadata["request\\n"] == "id\\r\\n2026-11-26T00:00:00 info tandem.server: forged")
        for text in [event.message] + event.metadata.values + capture.handlerMetadata.values {
            #expect(!text.unicodeScalars.contains { $0.hidesTextForTest }, "\(text.debugDescription)")
        }
    }

    @Test("ordinary text, accents and emoji pass unchanged")
    func ordinaryTextIsUnchanged() throws {
        let capture = Captured()
        let logger = Logger(label: "test") { _ in EscapingLogHandler(Capturing(captured: capture)) }
        logger.warning("Zoë signed in 👩‍👩‍👧", metadata: ["client_id": "tandem-demo", "path": "/v1/a b"])
        let event = try #require(capture.events.first)
        #expect(event.message == "Zoë signed in 👩‍👩‍👧")
        #expect(event.metadata == ["client_id": "tandem-demo", "path": "/v1/a b"])
    }
}

/// What the wrapped handler received, as text.
private final class Captured: Sendable {
    struct Event: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let state = Mutex<(events: [Event], handlerMetadata: [String: String])>(([], [:]))
    var events: [Event] { state.withLock { $0.events } }
    var handlerMetadata: [String: String] { state.withLock { $0.handlerMetadata } }

    func record(_ event: LogEvent) {
        state.withLock { $0.events.append(Event(message: event.message.description, metadata: (event.metadata ?? [:]).mapValues(\.description))) }
    }

    func setHandlerMetadata(_ metadata: Logger.Metadata) {
        state.withLock { $0.handlerMetadata = metadata.mapValues(\.description) }
    }
}

/// A handler that hands everything to a ``Captured``.
private struct Capturing: LogHandler {
    let captured: Captured
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:] {
        didSet { captured.setHandlerMetadata(metadata) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        captured.record(event)
    }
}

extension Unicode.Scalar {
    /// The characters the handler must never pass on, spelled out here rather than taken from
    /// the code under test.
    fileprivate var hidesTextForTest: Bool {
        value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
