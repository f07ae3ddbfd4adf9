import Foundation
import Logging

/// Writes the audit log: one ``AuditEvent`` per call, with a fresh id and the time, and the same
/// line to the server's log (never a secret: passcodes appear only as their public ids).
struct AuditLog: Sendable {
    let storage: AuditStore
    let logger: Logger

    /// Records `kind` (such as `sso.issued`) for `clientID` and `userID`, from `source`, as
    /// happening at `now`.
    func record(_ kind: String, clientID: String?, userID: String?, source: String?, detail: String, now: Timestamp) async throws(StorageError) {
        let event = AuditEvent(
            id: UUID().uuidString.lowercased(), at: now, kind: kind, clientID: clientID, userID: userID, source: source, detail: detail)
        try await storage.appendAuditEvent(event)
        logger.info("audit", metadata: [
            "kind": "\(kind)", "client_id": "\(clientID ?? "-")", "user": "\(userID ?? "-")", "detail": "\(detail)",
        ])
    }
}
