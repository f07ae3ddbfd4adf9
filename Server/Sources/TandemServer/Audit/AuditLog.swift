import Foundation
import Logging
import Synchronization

/// Writes the audit log: one ``AuditEvent`` per call, with a fresh id and the time, and the same
/// line to the server's log (never a secret: passcodes appear only as their public ids).
struct AuditLog: Sendable {
    let storage: AuditStore
    let logger: Logger
    /// Thins out anonymous refusals (``recordAnonymousRefusal(_:clientID:source:detail:now:)``);
    /// `nil` records every one.
    var anonymousRefusals: AuditSampler?

    /// Records `kind` (such as `sso.issued`) for `clientID` and `userID`, from `source`, as
    /// happening at `now`.
    func record(_ kind: String, clientID: String?, userID: String?, source: String?, detail: String, now: Timestamp) async throws(StorageError) {
        let event = AuditEvent(
            id: Self.nextID(), at: now, kind: kind, clientID: clientID, userID: userID, source: source, detail: detail)
        try await storage.appendAuditEvent(event)
        logger.info("audit", metadata: [
            "kind": "\(kind)", "client_id": "\(clientID ?? "-")", "user": "\(userID ?? "-")", "detail": "\(detail)",
        ])
    }

    /// Records a refusal of a request nobody is known to have made (an unknown passcode, a
    /// rate-limited source): sampled per kind and source, the row saying how many were left out
    /// since the last one, so that a flood of junk cannot push real evidence out of the log.
    func recordAnonymousRefusal(_ kind: String, clientID: String?, source: String, detail: String, now: Timestamp) async throws(StorageError) {
        guard let anonymousRefusals else {
            return try await record(kind, clientID: clientID, userID: nil, source: source, detail: detail, now: now)
        }
        guard let left = anonymousRefusals.admit(kind + " " + source) else { return }
        let note = left > 0 ? "; \(left) more from this address since the last such line" : ""
        try await record(kind, clientID: clientID, userID: nil, source: source, detail: detail + note, now: now)
    }

    /// Events recorded by this process so far: the middle of each id.
    private static let recorded = Atomic<UInt64>(0)

    /// A fresh id that sorts after every id this process made before (16 hex digits of a
    /// per-process sequence, then 16 random ones against other instances' ids), so that events
    /// of the same millisecond list in the order they were recorded.
    static func nextID() -> String {
        let sequence = recorded.wrappingAdd(1, ordering: .relaxed).newValue
        return hex(sequence) + "-" + hex(UInt64.random(in: .min ... .max))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
