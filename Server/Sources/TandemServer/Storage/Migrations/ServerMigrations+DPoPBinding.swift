extension ServerMigrations {
    /// Version 14: DPoP binding (RFC 9449). `token_families.dpop_jkt`, the thumbprint of the
    /// key a grant is bound to (`NULL`: a bearer grant), checked by the refresh statement
    /// itself; and `apps.dpop_required` (off by default), which refuses the app's token
    /// requests that carry no proof. Served in the app's configuration as `dpop_required`.
    static let dpopBinding = Migration(version: 14, name: "dpop binding") { _ in
        [
            "ALTER TABLE token_families ADD COLUMN dpop_jkt TEXT",
            "ALTER TABLE apps ADD COLUMN dpop_required BIGINT NOT NULL DEFAULT 0",
        ]
    }
}
