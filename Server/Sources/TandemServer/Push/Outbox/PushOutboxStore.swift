import SQLKit
import TandemPlatform
import TandemProtocol

/// The durable outbox of pushes: written in the transaction that changes an entity set (so a
/// crash loses none), claimed with a lease before each send (so two server instances, or a
/// restarted one, never send the same push at once), and emptied only once APNs answered.
///
/// One row per device token and entity set: a change while the row waits moves its change id
/// and nothing else, so changes coalesce into one push.
struct PushOutboxStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// What became of a push, as counted per app and kind.
    enum Outcome: String, Sendable, CaseIterable {
        /// APNs accepted it.
        case sent
        /// APNs refused it for good (the token is gone, or the request was wrong).
        case refused
        /// It was owed to a token whose registration ended before it could go.
        case dropped
        /// A push sent to the device after the change (for this set or another) reloaded it already.
        case coalesced
        /// The device's widgets would show what its last push showed.
        case unchanged
    }

    private static let key = "client_id, user_id, device_id, kind, destination, entity_set"

    /// Owes a push for `change` to every live registration whose device's widgets show the
    /// changed set, of every app that has an APNs key, inside the transaction that is changing
    /// the set: the widgets' token where a widget fetches for itself, the host's where a widget
    /// is brokered (or the device has no widgets' token). `rows` are the set's rows after the
    /// change; a device whose widgets would show what its last push showed is owed nothing (a
    /// push it is owed already is withdrawn). A row already waiting for that device and set
    /// keeps its place and takes the new change.
    static func enqueue(_ change: EntitySetChange, rows: [String], actionable: Bool, in database: any SQLDatabase) async throws {
        var digests: [String: String] = [:]
        let owed = try await candidates(for: change, in: database) { limit, fields in
            let viewKey = "\(limit)|\(fields)"
            let digest = digests[viewKey] ?? PushViewDigest.digest(
                of: rows, limit: limit, fields: PushViewDigest.decode(fields: fields), wholeRows: actionable)
            digests[viewKey] = digest
            return digest
        }
        try await owe(PushOwed.combined(owed), for: change, in: database)
    }

    /// Owes a push for `change`, which a customer's backend reported, to every live registration
    /// of `change`'s user (of every user when it names none) whose device's widgets show the
    /// set, by the same rules as ``enqueue(_:rows:actionable:in:)``. What the widgets would show
    /// is the backend's, per user, so every such device is owed the push (its digest is the
    /// change's own).
    static func enqueue(backendChange change: EntitySetChange, in database: any SQLDatabase) async throws {
        let owed = try await candidates(for: change, in: database) { _, _ in change.version }
        try await owe(PushOwed.combined(owed), for: change, in: database)
    }

    /// The registrations of apps with an APNs key whose device's widgets show `change`'s set
    /// (of `change`'s user only, when it names one), by delivery: the widgets' token for a
    /// widget that fetches itself, the host's for a brokered one (or a device without a widgets'
    /// token); each with the digest of what it would show (`digest` of its row limit and fields).
    private static func candidates(
        for change: EntitySetChange, in database: any SQLDatabase, digest: (_ limit: Int, _ fields: String) -> String
    ) async throws -> [PushOwed] {
        let onlyUser: SQLQueryString = change.userID.map { "AND p.user_id = \(bind: $0)" } ?? ""
        let candidates = try await database.raw("""
            SELECT p.client_id AS client_id, p.user_id AS user_id, p.device_id AS device_id, p.kind AS kind,
                   s.row_limit AS row_limit, s.fields AS fields, d.view_digest AS last_digest, o.change_id AS owed_change
            FROM push_registrations p
            JOIN token_families f ON f.id = p.family_id
            JOIN apns_credentials c ON c.client_id = p.client_id
            JOIN push_subscriptions s ON s.client_id = p.client_id AND s.user_id = p.user_id AND s.device_id = p.device_id
                 AND s.destination = \(bind: change.destination) AND s.entity_set = \(bind: change.entitySet)
            LEFT JOIN push_deliveries d ON d.client_id = p.client_id AND d.user_id = p.user_id AND d.device_id = p.device_id
                 AND d.kind = p.kind AND d.destination = s.destination AND d.entity_set = s.entity_set
            LEFT JOIN push_outbox o ON o.client_id = p.client_id AND o.user_id = p.user_id AND o.device_id = p.device_id
                 AND o.kind = p.kind AND o.destination = s.destination AND o.entity_set = s.entity_set
            WHERE f.revoked_at IS NULL \(onlyUser)
              AND ((p.kind = 'widgets' AND s.delivery = 'direct')
                OR (p.kind = 'host' AND (s.delivery = 'brokered' OR NOT EXISTS (
                    SELECT 1 FROM push_registrations w
                    WHERE w.client_id = p.client_id AND w.user_id = p.user_id AND w.device_id = p.device_id AND w.kind = 'widgets'))))
            """).all()
        var owed: [PushOwed] = []
        for row in candidates {
            let device = PushOwed.Device(
                clientID: try row.decode(column: "client_id", as: String.self), userID: try row.decode(column: "user_id", as: String.self),
                deviceID: try row.decode(column: "device_id", as: String.self), kind: try row.decode(column: "kind", as: String.self))
            owed.append(PushOwed(
                device: device,
                digest: digest(try row.decode(column: "row_limit", as: Int.self), try row.decode(column: "fields", as: String.self)),
                lastDigest: try row.decode(column: "last_digest", as: String?.self),
                isOwed: try row.decode(column: "owed_change", as: String?.self) != nil))
        }
        return owed
    }

    /// Writes the pushes `combined` are owed for `change`: a device whose widgets would show
    /// what its last push showed is owed nothing (and a push it was owed is withdrawn).
    private static func owe(_ combined: [PushOwed], for change: EntitySetChange, in database: any SQLDatabase) async throws {
        var changed: [PushOwed] = []
        for entry in combined {
            guard entry.digest == entry.lastDigest else {
                changed.append(entry)
                continue
            }
            // What the last push showed: nothing to send, and nothing owed any more.
            if entry.isOwed {
                try await database.raw("""
                    DELETE FROM push_outbox WHERE \(Self.matching(entry.device, destination: change.destination, entitySet: change.entitySet))
                    """).run()
            }
        }
        // A few statements for a set that many devices show, not one per device.
        var start = 0
        while start < changed.count {
            let values = changed[start..<min(start + Self.rowsPerInsert, changed.count)].map { entry -> SQLQueryString in
                """
                (\(bind: entry.device.clientID), \(bind: entry.device.userID), \(bind: entry.device.deviceID), \(bind: entry.device.kind),
                 \(bind: change.destination), \(bind: change.entitySet), \(bind: change.id), \(bind: change.changedAt.milliseconds),
                 \(bind: change.changedAt.milliseconds), 0, \(bind: change.changedAt.milliseconds), \(bind: entry.digest))
                """
            }.joined(separator: ", ")
            try await database.raw("""
                INSERT INTO push_outbox (\(unsafeRaw: key), change_id, enqueued_at, due_at, attempts, changed_at, view_digest)
                VALUES \(values)
                ON CONFLICT (\(unsafeRaw: key)) DO UPDATE
                SET change_id = excluded.change_id, changed_at = excluded.changed_at, view_digest = excluded.view_digest
                """).run()
            start += Self.rowsPerInsert
        }
    }

    /// How many owed pushes one statement writes (12 values each, within SQLite's 32,766 and
    /// PostgreSQL's 65,535 bound parameters).
    static let rowsPerInsert = 200

    /// The pushes due at `now`, oldest due first, with the registration each goes to.
    func due(now: Timestamp, limit: Int) async throws(StorageError) -> [PushOutboxEntry] {
        let rows = try await connector.perform("reading due pushes") { database in
            try await database.raw("""
                SELECT o.client_id AS client_id, o.user_id AS user_id, o.device_id AS device_id, o.kind AS kind,
                       o.destination AS destination, o.entity_set AS entity_set, o.change_id AS change_id,
                       o.enqueued_at AS enqueued_at, o.due_at AS due_at, o.attempts AS attempts,
                       p.token AS token, p.environment AS environment, d.last_sent_at AS last_sent_at,
                       o.changed_at AS changed_at, o.view_digest AS view_digest, d.view_digest AS last_view_digest,
                       p.time_zone AS time_zone, g.day_start AS day_start, g.sent_in_day AS sent_in_day, g.last_sent_at AS paced_at,
                       g.delivered_at AS delivered_at
                FROM push_outbox o
                JOIN push_registrations p ON p.client_id = o.client_id AND p.user_id = o.user_id
                     AND p.device_id = o.device_id AND p.kind = o.kind
                LEFT JOIN push_deliveries d ON d.client_id = o.client_id AND d.user_id = o.user_id
                     AND d.device_id = o.device_id AND d.kind = o.kind AND d.destination = o.destination
                     AND d.entity_set = o.entity_set
                LEFT JOIN push_pacing g ON g.client_id = o.client_id AND g.user_id = o.user_id
                     AND g.device_id = o.device_id AND g.kind = o.kind
                WHERE o.due_at <= \(bind: now.milliseconds)
                ORDER BY o.due_at, o.client_id, o.user_id, o.device_id, o.kind LIMIT \(bind: limit)
                """).all()
        }
        do {
            return try rows.map(Self.entry)
        } catch {
            throw .corruptRecord("push_outbox: \(error)")
        }
    }

    /// The earliest time a push is due, if any is owed.
    func nextDue() async throws(StorageError) -> Timestamp? {
        let row = try await connector.perform("reading the next due push") { database in
            try await database.raw("SELECT MIN(due_at) AS due FROM push_outbox").first()
        }
        do {
            return try row?.decode(column: "due", as: Int64?.self).map(Timestamp.init(milliseconds:))
        } catch {
            throw .corruptRecord("push_outbox: \(error)")
        }
    }

    /// Claims `entry` for a send until `leaseUntil` and counts the attempt, unless another
    /// sender claimed or moved it since it was read.
    ///
    /// - Returns: Whether this caller holds it now.
    func claim(_ entry: PushOutboxEntry, leaseUntil: Timestamp) async throws(StorageError) -> Bool {
        try await connector.perform("claiming a push") { database in
            try await database.raw("""
                UPDATE push_outbox SET due_at = \(bind: leaseUntil.milliseconds), attempts = attempts + 1
                WHERE \(Self.matching(entry)) AND due_at = \(bind: entry.dueAt.milliseconds)
                RETURNING attempts
                """).first() != nil
        }
    }

    /// Moves `entry` to `dueAt` without counting an attempt (its coalescing window has not ended).
    func postpone(_ entry: PushOutboxEntry, to dueAt: Timestamp) async throws(StorageError) {
        try await connector.perform("postponing a push") { database in
            try await database.raw("""
                UPDATE push_outbox SET due_at = \(bind: dueAt.milliseconds)
                WHERE \(Self.matching(entry)) AND due_at = \(bind: entry.dueAt.milliseconds)
                """).run()
        }
    }

    /// Schedules the claimed `entry` for another try at `dueAt` (APNs asked to slow down or
    /// failed, or could not be reached).
    func retry(_ entry: PushOutboxEntry, at dueAt: Timestamp) async throws(StorageError) {
        try await connector.perform("rescheduling a push") { database in
            try await database.raw("UPDATE push_outbox SET due_at = \(bind: dueAt.milliseconds) WHERE \(Self.matching(entry))").run()
        }
    }

    /// Records that APNs accepted the claimed `entry` at `now`: the row goes, unless a change
    /// came in while it was being sent, which stays owed (the pacing decides when it goes).
    /// What the push showed is remembered, so a change back to it owes nothing.
    func markSent(_ entry: PushOutboxEntry, now: Timestamp) async throws(StorageError) {
        try await connector.performTransaction("recording a sent push") { database in
            let removed = try await database.raw("""
                DELETE FROM push_outbox WHERE \(Self.matching(entry)) AND change_id = \(bind: entry.changeID)
                RETURNING attempts
                """).first()
            if removed == nil {
                try await database.raw("""
                    UPDATE push_outbox SET due_at = \(bind: now.milliseconds), attempts = 0 WHERE \(Self.matching(entry))
                    """).run()
            }
            try await Self.recordDelivery(entry, at: now, in: database)
            try await database.raw("""
                UPDATE push_pacing SET delivered_at = \(bind: now.milliseconds)
                WHERE client_id = \(bind: entry.clientID) AND user_id = \(bind: entry.userID) AND device_id = \(bind: entry.deviceID)
                  AND kind = \(bind: entry.kind.rawValue)
                """).run()
            try await Self.count(.sent, clientID: entry.clientID, kind: entry.kind, in: database)
        }
    }

    /// Removes `entry` without sending it, because a push sent to its device after its change
    /// (`pushedAt`, for this or another set) already reloaded what it stands for: counted as
    /// ``Outcome/coalesced``, and what it showed is remembered as pushed.
    func markCovered(_ entry: PushOutboxEntry, pushedAt: Timestamp) async throws(StorageError) {
        try await connector.performTransaction("recording a covered push") { database in
            let removed = try await database.raw("""
                DELETE FROM push_outbox WHERE \(Self.matching(entry)) AND change_id = \(bind: entry.changeID)
                RETURNING attempts
                """).first()
            guard removed != nil else { return }
            try await Self.recordDelivery(entry, at: pushedAt, in: database)
            try await Self.count(.coalesced, clientID: entry.clientID, kind: entry.kind, in: database)
        }
    }

    /// Takes one push of `device`'s budget at `now`, leaving `state` (``PushPacer``'s new state),
    /// unless another sender took one since `previous` was read: the pacing row moves only from
    /// the state this sender judged by.
    ///
    /// - Returns: Whether this sender holds the slot.
    func reservePacing(
        _ device: PushOwed.Device, from previous: PushPacingState?, to state: PushPacingState
    ) async throws(StorageError) -> Bool {
        try await connector.perform("pacing a push") { database in
            try await database.raw("""
                INSERT INTO push_pacing (client_id, user_id, device_id, kind, day_start, sent_in_day, last_sent_at)
                VALUES (\(bind: device.clientID), \(bind: device.userID), \(bind: device.deviceID), \(bind: device.kind),
                        \(bind: state.dayStart.milliseconds), \(bind: Int64(state.sentInDay)), \(bind: state.lastSentAt.milliseconds))
                ON CONFLICT (client_id, user_id, device_id, kind) DO UPDATE
                SET day_start = excluded.day_start, sent_in_day = excluded.sent_in_day, last_sent_at = excluded.last_sent_at
                WHERE push_pacing.last_sent_at = \(bind: previous?.lastSentAt.milliseconds ?? -1)
                  AND push_pacing.sent_in_day = \(bind: Int64(previous?.sentInDay ?? -1))
                RETURNING sent_in_day
                """).first() != nil
        }
    }

    /// Gives back the slot `taken` (APNs refused the push for now: it did not reach the device),
    /// restoring `previous`, unless another sender has taken one since.
    func releasePacing(_ device: PushOwed.Device, taken: PushPacingState, restoring previous: PushPacingState?) async throws(StorageError) {
        try await connector.perform("giving back a push's slot") { database in
            let matching: SQLQueryString = """
                client_id = \(bind: device.clientID) AND user_id = \(bind: device.userID) AND device_id = \(bind: device.deviceID)
                AND kind = \(bind: device.kind) AND last_sent_at = \(bind: taken.lastSentAt.milliseconds)
                AND sent_in_day = \(bind: Int64(taken.sentInDay))
                """
            if let previous {
                try await database.raw("""
                    UPDATE push_pacing SET day_start = \(bind: previous.dayStart.milliseconds), sent_in_day = \(bind: Int64(previous.sentInDay)),
                        last_sent_at = \(bind: previous.lastSentAt.milliseconds)
                    WHERE \(matching)
                    """).run()
            } else {
                try await database.raw("DELETE FROM push_pacing WHERE \(matching)").run()
            }
        }
    }

    /// The pacing of `device`, if it was ever pushed.
    func pacing(of device: PushOwed.Device) async throws(StorageError) -> PushPacingState? {
        let row = try await connector.perform("reading a device's push pacing") { database in
            try await database.raw("""
                SELECT day_start, sent_in_day, last_sent_at, delivered_at FROM push_pacing
                WHERE client_id = \(bind: device.clientID) AND user_id = \(bind: device.userID)
                  AND device_id = \(bind: device.deviceID) AND kind = \(bind: device.kind)
                """).first()
        }
        guard let row else { return nil }
        do {
            return PushPacingState(
                dayStart: Timestamp(milliseconds: try row.decode(column: "day_start", as: Int64.self)),
                sentInDay: try row.decode(column: "sent_in_day", as: Int.self),
                lastSentAt: Timestamp(milliseconds: try row.decode(column: "last_sent_at", as: Int64.self)),
                deliveredAt: try row.decode(column: "delivered_at", as: Int64?.self).map(Timestamp.init(milliseconds:)))
        } catch {
            throw .corruptRecord("push_pacing: \(error)")
        }
    }

    private static func recordDelivery(_ entry: PushOutboxEntry, at time: Timestamp, in database: any SQLDatabase) async throws {
        try await database.raw("""
            INSERT INTO push_deliveries (\(unsafeRaw: Self.key), last_sent_at, view_digest)
            VALUES (\(bind: entry.clientID), \(bind: entry.userID), \(bind: entry.deviceID), \(bind: entry.kind.rawValue),
                    \(bind: entry.destination), \(bind: entry.entitySet), \(bind: time.milliseconds), \(bind: entry.viewDigest))
            ON CONFLICT (\(unsafeRaw: Self.key)) DO UPDATE SET last_sent_at = excluded.last_sent_at, view_digest = excluded.view_digest
            """).run()
    }

    /// Removes `entry` for good, counted as `outcome`.
    func remove(_ entry: PushOutboxEntry, as outcome: Outcome) async throws(StorageError) {
        try await connector.performTransaction("removing a push") { database in
            try await database.raw("DELETE FROM push_outbox WHERE \(Self.matching(entry))").run()
            try await Self.count(outcome, clientID: entry.clientID, kind: entry.kind, in: database)
        }
    }

    /// Deletes the pushes owed to registrations that no longer exist or whose grant ended.
    ///
    /// - Returns: How many were deleted.
    func deleteOrphans() async throws(StorageError) -> Int {
        try await connector.perform("deleting pushes owed to ended registrations") { database in
            try await database.raw("""
                DELETE FROM push_outbox WHERE NOT EXISTS (
                    SELECT 1 FROM push_registrations p JOIN token_families f ON f.id = p.family_id
                    WHERE p.client_id = push_outbox.client_id AND p.user_id = push_outbox.user_id
                      AND p.device_id = push_outbox.device_id AND p.kind = push_outbox.kind AND f.revoked_at IS NULL)
                RETURNING kind
                """).all().count
        }
    }

    /// How many pushes are owed, to every app's devices or to `clientID`'s.
    func pendingCount(clientID: String? = nil) async throws(StorageError) -> Int {
        try await connector.perform("counting owed pushes") { database in
            let filter: SQLQueryString = clientID.map { "WHERE client_id = \(bind: $0)" } ?? ""
            return try await database.raw("SELECT COUNT(*) AS pending FROM push_outbox \(filter)").first()?.decode(column: "pending", as: Int.self) ?? 0
        }
    }

    /// The pushes counted for `clientID`, by kind and outcome.
    func counts(clientID: String) async throws(StorageError) -> [PushRegistration.Kind: [Outcome: Int]] {
        let rows = try await connector.perform("reading push counts") { database in
            try await database.raw("""
                SELECT kind, outcome, count FROM push_delivery_counts WHERE client_id = \(bind: clientID)
                """).all()
        }
        var counts: [PushRegistration.Kind: [Outcome: Int]] = [:]
        for row in rows {
            guard let kind = try? PushRegistration.Kind(rawValue: row.decode(column: "kind", as: String.self)),
                  let outcome = try? Outcome(rawValue: row.decode(column: "outcome", as: String.self)),
                  let count = try? row.decode(column: "count", as: Int.self)
            else { throw .corruptRecord("push_delivery_counts of \(clientID)") }
            counts[kind, default: [:]][outcome] = count
        }
        return counts
    }

    private static func count(_ outcome: Outcome, clientID: String, kind: PushRegistration.Kind, in database: any SQLDatabase) async throws {
        try await database.raw("""
            INSERT INTO push_delivery_counts (client_id, kind, outcome, count)
            VALUES (\(bind: clientID), \(bind: kind.rawValue), \(bind: outcome.rawValue), 1)
            ON CONFLICT (client_id, kind, outcome) DO UPDATE SET count = push_delivery_counts.count + 1
            """).run()
    }

    private static func matching(_ device: PushOwed.Device, destination: String, entitySet: String) -> SQLQueryString {
        """
        client_id = \(bind: device.clientID) AND user_id = \(bind: device.userID) AND device_id = \(bind: device.deviceID)
        AND kind = \(bind: device.kind) AND destination = \(bind: destination) AND entity_set = \(bind: entitySet)
        """
    }

    private static func matching(_ entry: PushOutboxEntry) -> SQLQueryString {
        """
        client_id = \(bind: entry.clientID) AND user_id = \(bind: entry.userID) AND device_id = \(bind: entry.deviceID)
        AND kind = \(bind: entry.kind.rawValue) AND destination = \(bind: entry.destination) AND entity_set = \(bind: entry.entitySet)
        """
    }

    private static func entry(_ row: any SQLRow) throws -> PushOutboxEntry {
        let kind = try row.decode(column: "kind", as: String.self)
        let environment = try row.decode(column: "environment", as: String.self)
        guard let parsedKind = PushRegistration.Kind(rawValue: kind), let parsedEnvironment = PushEnvironment(rawValue: environment)
        else { throw StorageError.corruptRecord("push of kind \(kind) in \(environment)") }
        return PushOutboxEntry(
            clientID: try row.decode(column: "client_id", as: String.self),
            userID: try row.decode(column: "user_id", as: String.self),
            deviceID: try row.decode(column: "device_id", as: String.self),
            kind: parsedKind,
            destination: try row.decode(column: "destination", as: String.self),
            entitySet: try row.decode(column: "entity_set", as: String.self),
            changeID: try row.decode(column: "change_id", as: String.self),
            enqueuedAt: Timestamp(milliseconds: try row.decode(column: "enqueued_at", as: Int64.self)),
            dueAt: Timestamp(milliseconds: try row.decode(column: "due_at", as: Int64.self)),
            attempts: try row.decode(column: "attempts", as: Int.self),
            token: try row.decode(column: "token", as: String.self),
            environment: parsedEnvironment,
            lastSentAt: try row.decode(column: "last_sent_at", as: Int64?.self).map(Timestamp.init(milliseconds:)),
            changedAt: Timestamp(milliseconds: try row.decode(column: "changed_at", as: Int64?.self)
                ?? row.decode(column: "enqueued_at", as: Int64.self)),
            viewDigest: try row.decode(column: "view_digest", as: String?.self),
            lastViewDigest: try row.decode(column: "last_view_digest", as: String?.self),
            timeZone: try row.decode(column: "time_zone", as: String?.self),
            pacing: try pacing(of: row))
    }

    private static func pacing(of row: any SQLRow) throws -> PushPacingState? {
        guard let dayStart = try row.decode(column: "day_start", as: Int64?.self),
              let sent = try row.decode(column: "sent_in_day", as: Int?.self),
              let last = try row.decode(column: "paced_at", as: Int64?.self)
        else { return nil }
        return PushPacingState(
            dayStart: Timestamp(milliseconds: dayStart), sentInDay: sent, lastSentAt: Timestamp(milliseconds: last),
            deliveredAt: try row.decode(column: "delivered_at", as: Int64?.self).map(Timestamp.init(milliseconds:)))
    }
}
