extension ServerMigrations {
    /// Version 4: `apps.resource_audiences` (space-separated, `NULL` when the app is no resource
    /// server, the default) says whose API keys may introspect, and about which tokens.
    static let resourceServers = Migration(version: 4, name: "resource servers") { _ in
        ["ALTER TABLE apps ADD COLUMN resource_audiences TEXT"]
    }
}
