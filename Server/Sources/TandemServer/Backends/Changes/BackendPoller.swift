import Logging
import Synchronization
import TandemBackends
import TandemPlatform
import TandemProtocol

/// Reads the backend sets that are polled (`pollEverySeconds`), for each user whose widgets show
/// them, and records a change for that user when their page is no longer what it was: for a
/// backend that cannot call the server (``BackendChangeEndpoint``). Each read is an ordinary
/// page read (``BackendPageReader``: the user's token, `If-None-Match` with the backend's ETag, so
/// an unchanged page costs the backend a `304`).
///
/// What each user's page last was is kept in memory: after a restart the first round only
/// learns it again. Several server instances each poll (and may each report the same change; the
/// pushes coalesce per device).
final class BackendPoller: Sendable {
    /// The saved destinations.
    let destinations: BackendDestinationStore
    /// Who shows which set.
    let registry: PushRegistryStore
    /// Where changes are recorded and pushes owed.
    let changes: ChangeFeedStore
    /// Reads each user's page.
    let reader: BackendPageReader
    /// Rung after a change: the push sender sends what it owes at once.
    let pushDoorbell: PushDoorbell
    /// Receives one line per failed round, never a row or a token.
    let logger: Logger

    private struct Watch: Hashable {
        var subscriber: PushSubscriber
        var destination: String
        var entitySet: String
    }

    private struct Seen {
        var tag: String
        var readAt: Timestamp
    }

    private let seen = Mutex<[Watch: Seen]>([:])

    /// A poller over the server's storage.
    init(
        destinations: BackendDestinationStore, registry: PushRegistryStore, changes: ChangeFeedStore, reader: BackendPageReader,
        pushDoorbell: PushDoorbell, logger: Logger
    ) {
        self.destinations = destinations
        self.registry = registry
        self.changes = changes
        self.reader = reader
        self.pushDoorbell = pushDoorbell
        self.logger = logger
    }

    /// One round at `now`: every polled set's subscribers whose interval has passed are read;
    /// a page that differs from the one read before records a change for its user.
    ///
    /// - Returns: How many changes were recorded.
    @discardableResult
    func pollOnce(now: Timestamp) async -> Int {
        let all: [BackendDestination]
        do {
            all = try await destinations.destinations()
        } catch {
            logger.warning("reading backend destinations to poll failed", metadata: ["error": "\(error)"])
            return 0
        }
        var recorded = 0
        for destination in all {
            for set in destination.entitySets {
                guard let interval = set.pollEverySeconds else { continue }
                recorded += await poll(set, of: destination.name, every: .seconds(interval), now: now)
            }
        }
        if recorded > 0 { pushDoorbell.ring() }
        return recorded
    }

    private func poll(_ set: BackendEntitySet, of destinationName: String, every interval: Duration, now: Timestamp) async -> Int {
        let subscribers: [PushSubscriber]
        let configured: ConfiguredBackendDestination?
        do {
            subscribers = try await registry.subscribers(destination: destinationName, entitySet: set.name)
            configured = try await reader.destination(named: destinationName)
        } catch {
            logger.warning("reading a polled set's subscribers failed", metadata: ["error": "\(error)"])
            return 0
        }
        guard let configured else { return 0 }
        var recorded = 0
        for subscriber in subscribers {
            let watch = Watch(subscriber: subscriber, destination: destinationName, entitySet: set.name)
            let before = seen.withLock { $0[watch] }
            if let before, before.readAt.adding(interval) > now { continue }
            // As the user's widgets read it: through the widgets' grant, as many rows as the most any shows.
            let caller = RequestPrincipal(
                clientID: subscriber.clientID, subject: subscriber.userID, scopes: [OAuthScope.dataRead],
                audience: [OAuthScope.extensionAudience], credential: .bearer)
            let paging = PageRequest(limit: min(max(subscriber.rows, 1), PageRequest.maximumLimit), offset: 0)
            let answer: BackendPageAnswer
            do {
                answer = try await reader.page(of: configured, entitySet: set, for: caller, paging: paging)
            } catch {
                seen.withLock { $0[watch]?.readAt = now }
                continue
            }
            // The last page again, marked stale, is the backend being down, not a change.
            guard !answer.isStale else {
                seen.withLock { $0[watch]?.readAt = now }
                continue
            }
            seen.withLock { $0[watch] = Seen(tag: answer.tag, readAt: now) }
            guard let before, before.tag != answer.tag else { continue }
            do {
                recorded += try await changes.recordBackendChange(
                    destination: destinationName, entitySet: set.name, userIDs: [subscriber.userID], now: now).count
            } catch {
                logger.warning("recording a polled change failed", metadata: ["error": "\(error)"])
            }
        }
        return recorded
    }
}
