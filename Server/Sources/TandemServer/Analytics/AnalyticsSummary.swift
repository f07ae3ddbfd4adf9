/// The body of `GET /v1/analytics/summary`: one app's events of one name in a period, counted
/// by kind, family and configuration.
struct AnalyticsSummary: Encodable, Sendable {
    /// The app whose events were counted (the caller's).
    let clientID: String
    /// The event name.
    let name: String
    /// The start of the period (inclusive), ISO 8601 UTC.
    let from: String
    /// The end of the period (exclusive), ISO 8601 UTC.
    let to: String
    /// Every counted event.
    let total: Int
    /// The counts, most frequent first.
    let groups: [Group]

    /// One combination of grouping properties and its count.
    struct Group: Encodable, Sendable {
        /// The `kind` property, or `null`.
        let kind: String?
        /// The `family` property, or `null`.
        let family: String?
        /// The `configuration` property, or `null`.
        let configuration: String?
        /// How many events had this combination.
        let count: Int

        /// Encodes absent properties as `null`, so every group has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(family, forKey: .family)
            try container.encode(configuration, forKey: .configuration)
            try container.encode(count, forKey: .count)
        }

        enum CodingKeys: String, CodingKey {
            case kind, family, configuration, count
        }
    }

    /// The summary of `counts`.
    init(clientID: String, name: String, from: Timestamp, to: Timestamp, counts: [AnalyticsCount]) {
        self.clientID = clientID
        self.name = name
        self.from = from.iso8601
        self.to = to.iso8601
        total = counts.reduce(0) { $0 + $1.count }
        groups = counts.map { Group(kind: $0.kind, family: $0.family, configuration: $0.configuration, count: $0.count) }
    }

    enum CodingKeys: String, CodingKey {
        case name, from, to, total, groups
        case clientID = "client_id"
    }
}
