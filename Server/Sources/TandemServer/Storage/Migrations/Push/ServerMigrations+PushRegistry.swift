extension ServerMigrations {
    /// Version 16: the push registry. A host registers, per device, its own APNs device token
    /// (`host`: background pushes that wake it) and its widgets' push token (`widgets`:
    /// WidgetKit push updates), for APNs' `sandbox` or `production` environment. One row per
    /// app, user, device and kind, replaced when the token changes; `family_id` is the grant it
    /// was registered with, so the registration ends with that session.
    static let pushRegistry = Migration(version: 16, name: "push registry") { _ in
        [
            """
            CREATE TABLE push_registrations (
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                environment TEXT NOT NULL,
                token TEXT NOT NULL,
                family_id TEXT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, user_id, device_id, kind)
            )
            """,
            "CREATE INDEX push_registrations_by_family ON push_registrations(family_id)",
            "CREATE INDEX push_registrations_by_token ON push_registrations(token)",
        ]
    }
}
