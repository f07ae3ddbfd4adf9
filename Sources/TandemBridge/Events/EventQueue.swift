import Foundation
import TandemVault

extension SharedContainer {
    /// The analytics events extensions queue for the host to send.
    public var events: EventQueue { EventQueue(container: self) }
}

/// The analytics events queue: extensions enqueue, the host drains to the server.
///
/// ```swift
/// try container.events.enqueue(QueuedEvent(name: "widget.render"))   // a widget
/// ```
public struct EventQueue: Sendable {
    let container: SharedContainer

    /// Queues `event` for the host to send.
    ///
    /// - Parameter event: The event; its name and id must be what the server accepts.
    /// - Throws: ``BridgeError/invalidName(_:)`` for an event the server would refuse (a bad
    ///   name or an id that is not a UUID) — refused here so that it never blocks a batch;
    ///   ``BridgeError/io(_:)``.
    public func enqueue(_ event: QueuedEvent) throws(BridgeError) {
        guard event.hasValidID else { throw .invalidName(event.id) }
        guard event.hasValidName else { throw .invalidName(event.name) }
        try container.write(event, kind: QueuedEvent.recordKind, to: QueuedEvent.path(id: event.id))
    }

    /// How many event files are queued, damaged ones included (they are skipped, not sent).
    ///
    /// - Throws: ``BridgeError/io(_:)`` when the folder cannot be listed.
    public func count() throws(BridgeError) -> Int {
        try container.recordPaths(in: "events", suffix: "event").count
    }

    /// Sends up to `limit` of the oldest queued events through `send`, and removes them only
    /// once `send` returned: if it throws, they stay queued for the next drain.
    ///
    /// Delivery is at least once: if the process dies between sending and removing, the events
    /// are sent again, and the server skips the ids it already stored. For the same reason the
    /// container's own failures (an unreadable folder, a file that cannot be removed) are
    /// logged rather than thrown, and damaged event files are skipped with a log line.
    ///
    /// ```swift
    /// let sent = try await container.events.drain { events in
    ///     try await api.post("/v1/events", json: ["events": events])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: The most events to send in one batch (the server takes at most 500).
    ///   - send: Delivers one batch, oldest first; throwing keeps the batch queued.
    /// - Returns: How many events were sent (zero when the queue is empty; `send` is then not called).
    /// - Throws: What `send` throws.
    @discardableResult
    public func drain<Failure: Error>(
        limit: Int = 100, send: ([QueuedEvent]) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        let paths: [String]
        do {
            paths = try container.recordPaths(in: "events", suffix: "event")
        } catch {
            container.logger.warning("cannot list queued events", metadata: ["error": "\(error)"])
            return 0
        }
        let batch = container.readEach(paths) { path throws(BridgeError) in
            try container.read(QueuedEvent.self, kind: QueuedEvent.recordKind, from: path).map { (path: path, event: $0) }
        }
        .sorted { ($0.event.timestamp, $0.event.id) < ($1.event.timestamp, $1.event.id) }
        .prefix(max(1, min(limit, 500)))
        guard !batch.isEmpty else { return 0 }
        try await send(batch.map(\.event))
        for (path, _) in batch {
            do {
                try container.remove(path)
            } catch {
                container.logger.warning("a sent event stays queued and will be sent again", metadata: ["error": "\(error)"])
            }
        }
        AtomicFile.syncDirectory(container.url("events"))
        return batch.count
    }
}
