import SQLKit

/// Where the audit log is kept: appended to, read newest first.
struct AuditStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Appends `event`.
    func appendAuditEvent(_ event: AuditEvent) async throws(StorageError) {
        try await connector.perform("writing an audit event") { database in
            try await database.raw("""
                INSERT INTO audit_events (id, at, kind, client_id, user_id, source, detail)
                VALUES (\(bind: event.id), \(bind: event.at.milliseconds), \(bind: event.kind), \(bind: event.clientID),
                        \(bind: event.userID), \(bind: event.source), \(bind: String(event.detail.prefix(500))))
                """).run()
        }
    }

    /// Deletes the events that happened before `before`.
    ///
    /// - Returns: How many were deleted.
    func deleteAuditEvents(before: Timestamp) async throws(StorageError) -> Int {
        try await connector.perform("deleting old audit events") { database in
            try await database.raw("DELETE FROM audit_events WHERE at < \(bind: before.milliseconds) RETURNING id").all().count
        }
    }

    /// The newest `limit` events, newest first, only `clientID`'s when given, only about
    /// `userID` when given.
    func auditEvents(clientID: String?, userID: String? = nil, limit: Int) async throws(StorageError) -> [AuditEvent] {
        let limit = max(1, min(limit, 1000))
        return try await connector.perform("reading the audit log") { database in
            let rows: [any SQLRow]
            if let userID {
                rows = try await database.raw("""
                    SELECT id, at, kind, client_id, user_id, source, detail FROM audit_events
                    WHERE user_id = \(bind: userID) ORDER BY at DESC, id DESC LIMIT \(bind: limit)
                    """).all()
            } else if let clientID {
                rows = try await database.raw("""
                    SELECT id, at, kind, client_id, user_id, source, detail FROM audit_events
                    WHERE client_id = \(bind: clientID) ORDER BY at DESC, id DESC LIMIT \(bind: limit)
                    """).all()
            } else {
                rows = try await database.raw("""
                    SELECT id, at, kind, client_id, user_id, source, detail FROM audit_events ORDER BY at DESC, id DESC LIMIT \(bind: limit)
                    """).all()
            }
            return try rows.map { row in
                AuditEvent(
                    id: try row.decode(column: "id", as: String.self), at: Timestamp(milliseconds: try row.decode(column: "at", as: Int64.self)),
                    kind: try row.decode(column: "kind", as: String.self), clientID: try row.decode(column: "client_id", as: String?.self),
                    userID: try row.decode(column: "user_id", as: String?.self), source: try row.decode(column: "source", as: String?.self),
                    detail: try row.decode(column: "detail", as: String.self))
            }
        }
    }
}
