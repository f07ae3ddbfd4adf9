import Foundation
import Logging

/// Writes the audit log: one ``AuditEvent`` per call, with a fresh id and the time, and the same
/// line to the server's log (never a secret: passcodes appear only as their public ids).
struct AuditLog: Sendable {
    let storage: AuditStore
    let logger: Logger
    /// Thins out refusals that anyone can provoke (``recordRefusal(_:clientID:userID:source:detail:now:)``);
    /// `nil` records every one.
    var refusals: AuditSampler?

    /// Records `kind` (such as `sso.issued`) for `clientID` and `userID`, from `source`, as
    /// happening at `now`.
    func record(_ kind: String, clientID: String?, userID: String?, source: String?, detail: String, now: Timestamp) async throws(StorageError) {
        let event = AuditEvent(
            id: SortableID.next(), at: now, kind: kind, clientID: clientID, userID: userID, source: source, detail: detail)
        try await storage.appendAuditEvent(event)
        logger.info("audit", metadata: [
            "kind": "\(kind)", "client_id": "\(clientID ?? "-")", "user": "\(userID ?? "-")", "detail": "\(detail)",
        ])
    }

    /// Records a refusal that anyone can provoke as often as they like (an unknown passcode, a
    /// rate-limited source, a public API key calling what it may not, a token refused at the
    /// exchange): sampled per kind, app and source, the row saying how many were left out since
    /// the last one, so that a flood of junk cannot push real evidence out of the log or fill
    /// the disk.
    ///
    /// - Parameter userID: The user, when the refused credential names one.
    func recordRefusal(
        _ kind: String, clientID: String?, userID: String? = nil, source: String, detail: String, now: Timestamp
    ) async throws(StorageError) {
        guard let refusals else {
            return try await record(kind, clientID: clientID, userID: userID, source: source, detail: detail, now: now)
        }
        guard let left = refusals.admit(kind + " " + (clientID ?? "-") + " " + source) else { return }
        let note = left > 0 ? "; \(left) more from this address since the last such line" : ""
        try await record(kind, clientID: clientID, userID: userID, source: source, detail: detail + note, now: now)
    }
}
