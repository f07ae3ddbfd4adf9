extension ServerMigrations {
    /// Version 11: an app's universal links for SSO. `apps.sso_link_host` is its associated
    /// domain and `apps.apple_app_id` its `TEAMID.bundle` id, which the server lists in
    /// `/.well-known/apple-app-site-association`; with both set, SSO links are
    /// `https://<host>/sso-link/<client id>?config=…` instead of the custom scheme.
    static let universalLinks = Migration(version: 11, name: "universal links for sso") { _ in
        [
            "ALTER TABLE apps ADD COLUMN sso_link_host TEXT",
            "ALTER TABLE apps ADD COLUMN apple_app_id TEXT",
        ]
    }
}
