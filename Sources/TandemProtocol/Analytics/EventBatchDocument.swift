/// The body of `POST /v1/events`, as the host sends it and the server reads it:
/// `{"events":[{"id":"<uuid>","name":"widget.tap","timestamp":"<ISO 8601>","properties":{…}}]}`.
/// What the server accepts in it is ``EventBatchRules``.
///
/// ```swift
/// let body = try JSONEncoder().encode(EventBatchDocument(events: [
///     .init(id: id, name: "widget.tap", timestamp: ISO8601Time.string(from: now), properties: ["kind": .string("business-data")]),
/// ]))
/// ```
public struct EventBatchDocument: Codable, Sendable, Equatable {
    /// The events, at most ``EventBatchRules/maximumEvents``.
    public var events: [Event]

    /// One event.
    public struct Event: Codable, Sendable, Equatable {
        /// A UUID; the server stores an id once, so a resent event is harmless.
        public var id: String
        /// What happened (``EventBatchRules/isValidName(_:)``).
        public var name: String
        /// When it happened, in `ISO8601Time`'s spelling.
        public var timestamp: String
        /// Details; the ``EventBatchRules/groupingProperties`` must be strings when present.
        public var properties: [String: JSONValue]?

        /// Creates an event.
        public init(id: String, name: String, timestamp: String, properties: [String: JSONValue]? = nil) {
            self.id = id
            self.name = name
            self.timestamp = timestamp
            self.properties = properties
        }
    }

    /// Creates a batch of `events`.
    public init(events: [Event]) {
        self.events = events
    }
}
