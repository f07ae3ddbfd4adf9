import Foundation
import Logging
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemVault

/// The host app's analytics: events recorded with ``track(action:data:)`` are written at once,
/// one small file each, to a directory the host owns, and sent to the server's `/v1/events` by
/// ``flush(with:tokens:)`` in batches.
///
/// Nothing is lost when the process dies or the server is down: a file is removed only after the
/// server answered 2xx for its batch. Nothing is counted twice: every event carries a random id
/// from the moment it is tracked, and the server stores an id once, so a batch sent again after
/// a lost answer changes nothing. Widgets never track: their grant cannot write events, and a
/// tap is counted by the host when it routes the tap's link (``WidgetTapTracker``).
///
/// ```swift
/// let analytics = try Analytics(directory: appSupport.appendingPathComponent("analytics"))
/// try await analytics.track(action: "report.opened", data: ["report": "sales"])
/// let sent = try await analytics.flush(with: client, tokens: coordinator)
/// ```
public actor Analytics {
    /// The most events the server takes in one request.
    public static let maximumBatchSize = EventBatchRules.maximumEvents

    /// The directory holding the events not yet sent.
    public nonisolated let directory: URL
    /// Events per request, 1 to ``maximumBatchSize``.
    public nonisolated let batchSize: Int
    private let clock: any WallClock
    private let logger: Logger
    private var isFlushing = false

    /// Opens (creating it, `0700`) the events directory `directory`; events tracked by an
    /// earlier instance there are sent by this one.
    ///
    /// - Parameters:
    ///   - directory: A directory only the host app reaches (not the shared container).
    ///   - batchSize: Events per request; clamped to 1…``maximumBatchSize``.
    ///   - clock: The events' timestamps come from it.
    ///   - logger: Receives a line for every damaged file skipped; never an event's data.
    /// - Throws: ``AnalyticsError/storage(_:)`` when the directory cannot be created.
    public init(
        directory: URL, batchSize: Int = maximumBatchSize, clock: any WallClock = SystemClock(),
        logger: Logger = Logger(label: "tandem.analytics")
    ) throws(AnalyticsError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(directory.path): \(error.localizedDescription)")
        }
        self.directory = directory
        self.batchSize = min(max(batchSize, 1), Self.maximumBatchSize)
        self.clock = clock
        self.logger = logger
    }

    /// Records `action` with `data`, durably, before returning.
    ///
    /// - Parameters:
    ///   - action: What happened, such as `widget.tap` (1 to 100 of `A-Z a-z 0-9 . _ -`).
    ///   - data: Details; `kind`, `family` and `configuration` are what the server's summaries
    ///     group by. Never a secret.
    /// - Returns: The event as it will be sent.
    /// - Throws: ``AnalyticsError/invalidAction(_:)``, ``AnalyticsError/storage(_:)``.
    @discardableResult
    public func track(action: String, data: [String: String] = [:]) throws(AnalyticsError) -> QueuedEvent {
        let event = QueuedEvent(name: action, properties: data, timestamp: clock.now)
        guard event.hasValidName else { throw .invalidAction(action) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try AtomicFile.replace(file(of: event), with: try encoder.encode(event), permissions: 0o600)
        } catch {
            throw .storage("cannot write an event: \(error)")
        }
        return event
    }

    /// The events not yet sent, oldest first. Damaged files are skipped with a log line.
    public func pendingEvents() -> [QueuedEvent] {
        pending().map(\.event)
    }

    /// Sends the pending events to `POST /v1/events`, oldest first, in batches of ``batchSize``,
    /// removing each batch's files once the server took it. A flush already under way in this
    /// instance makes this call return 0 at once.
    ///
    /// - Parameters:
    ///   - client: The app's clients.
    ///   - tokens: The host's own tokens (a widget's read-only grant is refused).
    /// - Returns: How many events the server took.
    /// - Throws: `AuthError` from the first batch that failed; it and every later batch stay
    ///   for the next flush, the batches sent before it are gone.
    @discardableResult
    public func flush(with client: AppClient, tokens: any AccessTokenProvider) async throws(AuthError) -> Int {
        guard !isFlushing else { return 0 }
        isFlushing = true
        defer { isFlushing = false }
        let events = pending()
        var sent = 0
        for start in stride(from: 0, to: events.count, by: batchSize) {
            let batch = events[start..<min(start + batchSize, events.count)]
            try await EventUpload.send(batch.map(\.event), with: client, tokens: tokens)
            for (url, _) in batch {
                do {
                    try FileSystem.removeIfPresent(atPath: url.path)
                } catch {
                    logger.warning("a sent event stays and will be sent again (the server skips its id)", metadata: ["error": "\(error)"])
                }
            }
            AtomicFile.syncDirectory(directory)
            sent += batch.count
        }
        return sent
    }

    // MARK: - Files

    private nonisolated func file(of event: QueuedEvent) -> URL {
        directory.appendingPathComponent("\(event.id).event", isDirectory: false)
    }

    /// Every readable event file and its event, oldest first.
    private func pending() -> [(url: URL, event: QueuedEvent)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            logger.warning("cannot list the analytics events", metadata: ["error": "\(error.localizedDescription)"])
            return []
        }
        let decoder = JSONDecoder()
        return names.filter { $0.hasSuffix(".event") && !$0.hasPrefix(".") }.compactMap { name in
            let url = directory.appendingPathComponent(name, isDirectory: false)
            guard let data = try? Data(contentsOf: url), let event = try? decoder.decode(QueuedEvent.self, from: data), file(of: event) == url else {
                logger.warning("skipping a damaged analytics event file", metadata: ["file": "\(name)"])
                return nil
            }
            return (url, event)
        }
        .sorted { ($0.event.timestamp, $0.event.id) < ($1.event.timestamp, $1.event.id) }
    }
}
