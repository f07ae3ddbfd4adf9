/// Where the audit log is kept: appended to, read newest first.
public protocol AuditStorage: Sendable {
    /// Appends `event`.
    func appendAuditEvent(_ event: AuditEvent) async throws(StorageError)

    /// The newest `limit` events, newest first, only `clientID`'s when given.
    func auditEvents(clientID: String?, limit: Int) async throws(StorageError) -> [AuditEvent]
}
