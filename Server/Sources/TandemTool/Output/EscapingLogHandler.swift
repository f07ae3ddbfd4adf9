import Logging
import TandemProtocol

/// Writes log lines through `Wrapped` with every value a client chose escaped, so that a value
/// cannot forge or hide a line: control characters (a line break in a `client_id` or a device
/// label would otherwise start a made-up line of its own), line and paragraph separators, and
/// the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) become
/// `\n`, `\r`, `\t` or `\u{…}`.
///
/// ```swift
/// let logger = Logger(label: "tandem.server") { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
/// logger.info("app created", metadata: ["client_id": "\(clientID)"])   // "a\nb" is written as a\nb, on one line
/// ```
///
/// The message, every metadata value (in arrays and dictionaries too) and every metadata key are
/// escaped: in each event, and in the metadata set on the logger.
public struct EscapingLogHandler<Wrapped: LogHandler>: LogHandler {
    /// The handler that writes the escaped lines.
    public var wrapped: Wrapped

    /// Escapes what `wrapped` is given.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = Self.escaped(newValue) }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue.map(Self.escaping) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: Self.escaped(key)] = newValue.map(Self.escaped) }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.escaped(event.message.description))
        event.metadata = event.metadata.map(Self.escaped)
        wrapped.log(event: event)
    }

    // MARK: - Escaping

    /// `text` with every control, separator and bidirectional-control character escaped.
    public static func escaped(_ text: String) -> String {
        // Printable ASCII hides nothing, and it is what nearly every value is (the request id
        // Hummingbird sets on every request's logger among them): no Unicode property lookups.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text }
        guard text.unicodeScalars.contains(where: \.hidesText) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard scalar.hidesText else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
        // Two keys that escape alike keep the first value rather than trap.
        Logger.Metadata(metadata.map { (escaped($0.key), escaped($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(escaped(text))
        case .stringConvertible(let convertible): .string(escaped(convertible.description))
        case .array(let values): .array(values.map(escaped))
        case .dictionary(let metadata): .dictionary(escaped(metadata))
        }
    }

    static func escaping(_ provider: Logger.MetadataProvider) -> Logger.MetadataProvider {
        Logger.MetadataProvider { escaped(provider.get()) }
    }
}
