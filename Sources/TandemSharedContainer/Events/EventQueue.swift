#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

extension SharedContainer {
    /// The analytics events extensions queue for the host to send.
    public var events: EventQueue { EventQueue(container: self) }
}

/// The analytics events queue: extensions enqueue, the host drains to the server.
///
/// The host sends these events with the user's token, so each is sealed under the
/// ``SharedSealingKey`` that only the host and its extensions hold: a file anyone else put in the
/// folder, or changed, does not open, and is removed without being sent.
///
/// ```swift
/// try container.events.enqueue(QueuedEvent(name: "widget.render"), sealingKey: sealingKey)   // a widget
/// ```
public struct EventQueue: Sendable {
    let container: SharedContainer

    /// Queues `event`, sealed under `sealingKey`, for the host to send.
    ///
    /// - Parameters:
    ///   - event: The event; its name and id must be what the server accepts.
    ///   - sealingKey: The key shared with the host, from ``SharedSealingKey/load(from:)``.
    /// - Throws: ``SharedContainerError/invalidName(_:)`` for an event the server would refuse (a bad
    ///   name or an id that is not a UUID) — refused here so that it never blocks a batch;
    ///   ``SharedContainerError/tooLarge(kind:size:limit:)`` for an event with too many properties;
    ///   ``SharedContainerError/io(_:)``.
    public func enqueue(_ event: QueuedEvent, sealingKey: SharedSealingKey) throws(SharedContainerError) {
        guard event.hasValidID else { throw .invalidName(event.id) }
        guard event.hasValidName else { throw .invalidName(event.name) }
        try container.writeSealed(value: event, kind: QueuedEvent.recordKind, to: QueuedEvent.path(id: event.id), symmetricKey: sealingKey.symmetricKey)
    }

    /// How many event files are queued, damaged ones included (the next drain removes them).
    ///
    /// - Throws: ``SharedContainerError/io(_:)`` when the folder cannot be listed.
    public func count() throws(SharedContainerError) -> Int {
        try container.recordPaths(in: "events", suffix: "event").count
    }

    /// Sends up to `limit` of the oldest queued events through `send`, and removes them only
    /// once `send` returned: if it throws, they stay queued for the next drain.
    ///
    /// Delivery is at least once: if the process dies between sending and removing, the events
    /// are sent again, and the server skips the ids it already stored. For the same reason the
    /// container's own failures (an unreadable folder, a file that cannot be removed) are
    /// logged rather than thrown. An event file that does not open under `sealingKey` (written
    /// by someone else, changed, or cut) is removed with a log line, never sent.
    ///
    /// ```swift
    /// let sent = try await container.events.drain(sealingKey: sealingKey) { events in
    ///     try await api.post("/v1/events", json: ["events": events])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: The most events to send in one batch (the server takes at most 500).
    ///   - sealingKey: The key the host provisioned with ``SharedSealingKey/provision(in:)``.
    ///   - send: Delivers one batch, oldest first; throwing keeps the batch queued.
    /// - Returns: How many events were sent (zero when the queue is empty; `send` is then not called).
    /// - Throws: What `send` throws.
    @discardableResult
    public func drain<Failure: Error>(
        limit: Int = 100, sealingKey: SharedSealingKey, send: ([QueuedEvent]) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        let paths: [String]
        do {
            paths = try container.recordPaths(in: "events", suffix: "event")
        } catch {
            container.logger.warning("cannot list queued events", metadata: ["error": "\(error)"])
            return 0
        }
        let batch = paths.compactMap { path in readOrDiscard(path, sealingKey: sealingKey).map { (path: path, event: $0) } }
            .sorted { ($0.event.timestamp, $0.event.id) < ($1.event.timestamp, $1.event.id) }
            .prefix(max(1, min(limit, EventBatchRules.maximumEvents)))
        guard !batch.isEmpty else { return 0 }
        try await send(batch.map(\.event))
        for (path, _) in batch { remove(path, because: "a sent event stays queued and will be sent again") }
        AtomicFile.syncDirectory(container.url("events"))
        return batch.count
    }

    // MARK: - Internals

    /// The event at `path`; `nil` for one that cannot be read now (kept for later) or that does
    /// not open under the key (removed: nobody can ever send it).
    private func readOrDiscard(_ path: String, sealingKey: SharedSealingKey) -> QueuedEvent? {
        do throws(SharedContainerError) {
            guard let record = try container.contents(of: path, kind: QueuedEvent.recordKind) else { return nil }
            let plaintext = try container.openSealed(record, kind: QueuedEvent.recordKind, path: path, symmetricKey: sealingKey.symmetricKey)
            let event = try container.decodeSealed(QueuedEvent.self, from: plaintext, kind: QueuedEvent.recordKind, path: path)
            guard QueuedEvent.path(id: event.id) == path else { throw .corrupt(path: path, reason: "the event does not match its name") }
            return event
        } catch .undecryptable, .corrupt, .foreignRecord {
            container.logger.warning("removing a queued event that is not sealed under the shared sealing key", metadata: ["path": "\(path)"])
            remove(path, because: "a forged or damaged event stays queued")
            return nil
        } catch {
            container.logger.warning("skipping an unreadable shared record", metadata: ["path": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    private func remove(_ path: String, because consequence: String) {
        do {
            try container.remove(path)
        } catch {
            container.logger.warning("\(consequence)", metadata: ["error": "\(error)"])
        }
    }
}
