/// What `tandem admin seed-demo` found and did, for the command to print.
public struct DemoSeedReport: Sendable {
    /// Whether the demo user was created (`false`: it already existed and was left as it was).
    public var createdUser: Bool
    /// The demo apps created by this run, by client id.
    public var createdApps: [String]
    /// The kiosk app's API key, only when this run created the app: shown once, stored hashed.
    public var apiKey: String?
    /// Each demo entity set with its row count and whether this run wrote it.
    public var entitySets: [(name: String, rows: Int, written: Bool)]

    /// Creates a report.
    public init(createdUser: Bool, createdApps: [String], apiKey: String?, entitySets: [(name: String, rows: Int, written: Bool)]) {
        self.createdUser = createdUser
        self.createdApps = createdApps
        self.apiKey = apiKey
        self.entitySets = entitySets
    }

}
