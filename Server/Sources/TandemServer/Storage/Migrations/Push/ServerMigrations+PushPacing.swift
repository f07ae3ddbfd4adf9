extension ServerMigrations {
    /// Version 24: pushes that fit the phone's budget.
    ///
    /// - `push_subscriptions`: what each registered device's placed widgets show (destination,
    ///   entity set, how many rows, which fields, and whether the widget fetches itself or the
    ///   host fetches for it), replaced with every registration. A change is owed only to the
    ///   devices whose widgets show its set.
    /// - `push_registrations.time_zone`: the device's time zone (IANA), where its budget's day begins.
    /// - `push_outbox.changed_at`, `push_outbox.view_digest`: when the set last changed for the
    ///   push, and a digest of what the device's widgets would show after it; a push that a
    ///   later push already covered, or that would show what was pushed last, is not sent.
    /// - `push_deliveries.view_digest`: the digest of what the last push to the device for the
    ///   set showed.
    /// - `push_pacing`: per device and push kind, the day the budget counts (its start, in
    ///   milliseconds), the pushes sent that day and the last one's time (a slot taken), and
    ///   when APNs last accepted one (`delivered_at`: a later push covers the changes before
    ///   it). Shared by every instance, and kept across restarts.
    static let pushPacing = Migration(version: 24, name: "push subscriptions and pacing") { _ in
        [
            """
            CREATE TABLE push_subscriptions (
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                destination TEXT NOT NULL,
                entity_set TEXT NOT NULL,
                delivery TEXT NOT NULL CHECK (delivery IN ('direct', 'brokered')),
                row_limit BIGINT NOT NULL,
                fields TEXT NOT NULL,
                PRIMARY KEY (client_id, user_id, device_id, destination, entity_set, delivery)
            )
            """,
            "CREATE INDEX push_subscriptions_by_set ON push_subscriptions(destination, entity_set)",
            "ALTER TABLE push_registrations ADD COLUMN time_zone TEXT",
            "ALTER TABLE push_outbox ADD COLUMN changed_at BIGINT",
            "ALTER TABLE push_outbox ADD COLUMN view_digest TEXT",
            "ALTER TABLE push_deliveries ADD COLUMN view_digest TEXT",
            """
            CREATE TABLE push_pacing (
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                day_start BIGINT NOT NULL,
                sent_in_day BIGINT NOT NULL,
                last_sent_at BIGINT NOT NULL,
                delivered_at BIGINT,
                PRIMARY KEY (client_id, user_id, device_id, kind)
            )
            """,
        ]
    }
}
