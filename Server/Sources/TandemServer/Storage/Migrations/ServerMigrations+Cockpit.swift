extension ServerMigrations {
    /// Version 9: `users.is_admin`, who may use the cockpit at `/admin` (nobody by default;
    /// `tandem admin create-user --admin` or `tandem admin seed-demo` make one).
    static let cockpit = Migration(version: 9, name: "administrators") { _ in
        ["ALTER TABLE users ADD COLUMN is_admin BIGINT NOT NULL DEFAULT 0"]
    }
}
