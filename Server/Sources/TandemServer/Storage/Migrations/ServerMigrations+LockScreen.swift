extension ServerMigrations {
    /// Version 13: `apps.lock_screen_redaction` (on by default): the app's Lock Screen and
    /// StandBy widgets hide their rows while the phone is locked. Served in the app's
    /// configuration as `lock_screen_redaction`; the cockpit turns it off for data that is not
    /// sensitive.
    static let lockScreen = Migration(version: 13, name: "lock screen redaction") { _ in
        ["ALTER TABLE apps ADD COLUMN lock_screen_redaction BIGINT NOT NULL DEFAULT 1"]
    }
}
