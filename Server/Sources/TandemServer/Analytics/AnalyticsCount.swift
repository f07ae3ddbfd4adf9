/// How many events of one name had one combination of kind, family and configuration.
struct AnalyticsCount: Sendable, Hashable {
    /// The `kind` property (`nil` for events without one).
    var kind: String?
    /// The `family` property (`nil` for events without one).
    var family: String?
    /// The `configuration` property (`nil` for events without one).
    var configuration: String?
    /// How many events had this combination.
    var count: Int

    /// Creates a count.
    init(kind: String?, family: String?, configuration: String?, count: Int) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.count = count
    }
}
