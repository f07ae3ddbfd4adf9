#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// An analytics event an extension queued in the container's `events/` folder for the host to
/// send. It encodes exactly as one event of the server's `POST /v1/events` batch
/// (`{"id", "name", "timestamp", "properties"}`, the timestamp in ISO 8601), so the host sends
/// drained events as they are.
///
/// ```swift
/// try container.events.enqueue(QueuedEvent(name: "widget.render",
///                                        properties: ["kind": "orders", "family": "systemSmall"]))
/// ```
public struct QueuedEvent: Codable, Sendable, Equatable, Identifiable {
    /// A UUID, lowercase; the server skips an id it already stored, so resending is harmless.
    public let id: String
    /// What happened, such as `widget.render` (1 to 100 of `[A-Za-z0-9._-]`).
    public let name: String
    /// When it happened (sent with millisecond precision).
    public let timestamp: Date
    /// Details; `kind`, `family` and `configuration` are what the server's summaries group by.
    public let properties: [String: String]

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - name: What happened, such as `widget.render`.
    ///   - properties: Details such as `kind`, `family` and `configuration`; never a secret.
    ///   - timestamp: When it happened.
    ///   - id: The event's id; a fresh UUID by default.
    public init(name: String, properties: [String: String] = [:], timestamp: Date = Date(), id: String = UUID().uuidString.lowercased()) {
        self.id = id
        self.name = name
        self.timestamp = timestamp
        self.properties = properties
    }

    // MARK: - Wire form

    private enum CodingKeys: String, CodingKey { case id, name, timestamp, properties }

    /// Decodes the server's form: the timestamp is ISO 8601, with or without fractional seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        properties = try container.decodeIfPresent([String: String].self, forKey: .properties) ?? [:]
        let text = try container.decode(String.self, forKey: .timestamp)
        guard let date = ISO8601Time.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: .timestamp, in: container, debugDescription: "not an ISO 8601 date-time")
        }
        timestamp = date
    }

    /// Encodes the server's form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(ISO8601Time.string(from: timestamp), forKey: .timestamp)
        try container.encode(properties, forKey: .properties)
    }

    // MARK: - Checks

    /// Whether the server accepts the id: a UUID. (An event it refuses would refuse its batch.)
    var hasValidID: Bool { UUID(uuidString: id) != nil }

    /// Whether the server accepts the name (`EventBatchRules/isValidName(_:)` of TandemProtocol). An event it refuses
    /// would make the server refuse its whole batch, so check before queueing.
    public var hasValidName: Bool { EventBatchRules.isValidName(name) }

    static let recordKind = "event"

    static func path(id: String) -> String { "events/\(id).event" }
}
