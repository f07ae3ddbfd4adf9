/// One analytics event as stored, such as a `widget.tap` with its widget's kind, family and
/// configuration.
struct AnalyticsEvent: Sendable, Hashable {
    /// The client's id for the event (a lowercase UUID); a second event with the same id is a duplicate.
    var id: String
    /// The app that sent it.
    var clientID: String
    /// The user it was sent for (a bearer token's subject), or `nil` when sent with an API key.
    var subject: String?
    /// The event's name, such as `widget.tap`.
    var name: String
    /// When it happened, by the client's clock.
    var occurredAt: Timestamp
    /// The `kind` property, by which summaries group.
    var kind: String?
    /// The `family` property, by which summaries group.
    var family: String?
    /// The `configuration` property, by which summaries group.
    var configuration: String?
    /// Every property as the JSON text of an object.
    var properties: String

    /// Creates an event.
    init(
        id: String, clientID: String, subject: String?, name: String, occurredAt: Timestamp,
        kind: String?, family: String?, configuration: String?, properties: String
    ) {
        self.id = id
        self.clientID = clientID
        self.subject = subject
        self.name = name
        self.occurredAt = occurredAt
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.properties = properties
    }

    /// The bytes the event counts against its app's quota: its name and properties.
    var storedBytes: Int { name.utf8.count + properties.utf8.count }
}
