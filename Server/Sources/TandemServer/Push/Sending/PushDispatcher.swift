import Foundation
import Logging
import Metrics
import ServiceLifecycle
import TandemPlatform

/// Sends the outbox's pushes to APNs while the server runs: at once when this process wrote a
/// change (its ``PushDoorbell`` rings), else every ``PushSettings/pollInterval``.
///
/// Each pass reads the due pushes and takes each device token's in turn: a push whose change an
/// earlier push to the device already reloaded is removed (`coalesced`), one whose widgets would
/// show what the last push showed is removed (`unchanged`), one the device's budget cannot take
/// yet is postponed to when the ``PushPacer`` allows it; the rest is claimed with a lease (so two
/// instances never send one push at once), takes a slot of the device's budget (so two
/// instances never overspend it), goes, and APNs' answer is recorded:
///
/// | answer | what happens |
/// | --- | --- |
/// | 200 | the push leaves the outbox (a change that came in meanwhile stays owed) |
/// | 410 `Unregistered`, 400 `BadDeviceToken` | the app's registration of the token leaves the registry (a 410 only if registered before its `timestamp`), the push the outbox |
/// | 403 `ExpiredProviderToken` | a new provider token, and the push once more |
/// | 429, 5xx, other 403, no answer | tried again after a back-off that doubles, with jitter |
/// | any other refusal | the push is dropped and counted refused |
///
/// A crash between the claim and the answer leaves the push claimed until its lease ends;
/// then it is sent again, with the same `apns-id`. A crash after the answer was recorded never
/// sends it again.
struct PushDispatcher: Service {
    /// The stores it reads and writes.
    let database: ServerDatabase
    /// The key the APNs auth keys are sealed under.
    let sealingKey: Data
    /// The provider tokens.
    let providerTokens: APNsProviderTokens
    /// Intervals, back-offs and leases.
    let settings: PushSettings
    /// Rung by this process's writes.
    let doorbell: PushDoorbell
    /// When each device's next push may go.
    var pacer: PushPacer { PushPacer(settings: settings) }
    /// Receives sends that failed.
    let logger: Logger
    /// What time it is, and what the sender waits on.
    let clock: any WallClock

    /// How many pushes one pass reads at most.
    static let batchSize = 256
    /// How many sends are in flight at once.
    static let concurrentSends = 32

    /// What one pass did.
    struct PassReport: Sendable, Equatable {
        /// Accepted by APNs.
        var sent = 0
        /// Refused for good (the token gone, or the request wrong), or dropped.
        var refused = 0
        /// Left for a later try.
        var retried = 0
        /// Held back until the device's budget allows them.
        var postponed = 0
        /// Not sent: an earlier push to the device reloaded them already, or the widgets would
        /// show what they showed.
        var coalesced = 0

        /// Whether the pass did anything.
        var isEmpty: Bool { sent + refused + retried + postponed + coalesced == 0 }
    }

    func run() async throws {
        let client = try APNsClient(settings: settings)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let report = await sendDue(using: client)
                if !report.isEmpty { continue }
                await waitForWork()
            }
        }
        await client.shutdown()
    }

    /// Waits for a ring, the poll interval, or the next push's due time, whichever is first.
    private func waitForWork() async {
        var wait = settings.pollInterval
        if let next = try? await database.pushOutbox.nextDue() {
            let untilDue = Duration.milliseconds(max(0, next.milliseconds - Timestamp(clock.now).milliseconds))
            wait = min(wait, untilDue)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await doorbell.wait() }
            group.addTask { [clock, wait] in try? await clock.sleep(for: wait) }
            await group.next()
            group.cancelAll()
        }
    }

    /// One pass over the pushes due now, sent through `client`.
    func sendDue(using client: APNsClient) async -> PassReport {
        let now = Timestamp(clock.now)
        let due: [PushOutboxEntry]
        do {
            due = try await database.pushOutbox.due(now: now, limit: Self.batchSize)
        } catch {
            logger.warning("reading the push outbox failed", metadata: ["error": "\(error)"])
            return PassReport()
        }
        // Each app's key, opened once a pass (none: its pushes are dropped).
        var credentials: [String: APNsCredentials] = [:]
        for clientID in Set(due.map(\.clientID)) {
            credentials[clientID] = try? await database.apnsCredentials.credentials(clientID: clientID, sealingKey: sealingKey)
        }
        var report = PassReport()
        // One task per device token, its pushes in turn: one push reloads every widget (or runs
        // the host once), so the first sent covers the others, and the budget is spent once.
        var groups: [PushOwed.Device: [PushOutboxEntry]] = [:]
        var order: [PushOwed.Device] = []
        for entry in due {
            if groups[entry.device] == nil { order.append(entry.device) }
            groups[entry.device, default: []].append(entry)
        }
        await withTaskGroup(of: PassReport.self) { group in
            var inFlight = 0
            for device in order {
                let entries = groups[device] ?? []
                let appCredentials = credentials[device.clientID]
                if inFlight == Self.concurrentSends, let finished = await group.next() {
                    report.add(finished)
                    inFlight -= 1
                }
                group.addTask { await send(entries, credentials: appCredentials, client: client, now: now) }
                inFlight += 1
            }
            for await finished in group { report.add(finished) }
        }
        if !report.isEmpty {
            if let pending = try? await database.pushOutbox.pendingCount() { Gauge(label: "tandem_pushes_pending").record(pending) }
        }
        return report
    }

    /// Takes one device token's due pushes in turn: each is removed when an earlier push covered
    /// it or it would show nothing new, postponed while the budget cannot take it, else sent.
    private func send(_ entries: [PushOutboxEntry], credentials: APNsCredentials?, client: APNsClient, now: Timestamp) async -> PassReport {
        var report = PassReport()
        var pacing = entries.first?.pacing
        for entry in entries {
            var current = entry
            current.pacing = pacing
            let (outcome, after) = await send(current, credentials: credentials, client: client, now: now)
            report.add(outcome)
            pacing = after
        }
        return report
    }

    /// Sends one push (or removes or postpones it), and records what came of it; returns the
    /// device's pacing after it.
    private func send(
        _ entry: PushOutboxEntry, credentials: APNsCredentials?, client: APNsClient, now: Timestamp
    ) async -> (PassReport, PushPacingState?) {
        var report = PassReport()
        do {
            if let pushed = entry.pacing?.deliveredAt, pushed.milliseconds >= entry.changedAt.milliseconds {
                try await database.pushOutbox.markCovered(entry, pushedAt: pushed)
                report.coalesced = 1
                return (report, entry.pacing)
            }
            if let digest = entry.viewDigest, digest == entry.lastViewDigest {
                try await database.pushOutbox.remove(entry, as: .unchanged)
                report.coalesced = 1
                return (report, entry.pacing)
            }
            let allowedAt = pacer.nextAllowed(after: entry.pacing, kind: entry.kind, timeZone: entry.timeZone, now: now)
            if allowedAt.milliseconds > now.milliseconds {
                try await database.pushOutbox.postpone(entry, to: allowedAt)
                report.postponed = 1
                return (report, entry.pacing)
            }
            guard try await database.pushOutbox.claim(entry, leaseUntil: now.adding(settings.sendLease)) else { return (report, entry.pacing) }
            guard let credentials else {
                // The app's key was removed (or no longer opens) after the push was owed.
                try await database.pushOutbox.remove(entry, as: .dropped)
                report.refused = 1
                return (report, entry.pacing)
            }
            let paced = pacer.recording(entry.pacing, timeZone: entry.timeZone, sentAt: now)
            guard try await database.pushOutbox.reservePacing(entry.device, from: entry.pacing, to: paced) else {
                // Another instance pushed this device meanwhile: judge again with what it did.
                try await database.pushOutbox.retry(entry, at: now)
                report.postponed = 1
                return (report, try await database.pushOutbox.pacing(of: entry.device))
            }
            let (delivered, answered) = await deliver(entry, credentials: credentials, client: client, now: now)
            if delivered.sent == 0, answered {
                // APNs answered but did not take it (not now, or never): the device got nothing.
                try await database.pushOutbox.releasePacing(entry.device, taken: paced, restoring: entry.pacing)
                return (delivered, entry.pacing)
            }
            var after = paced
            if delivered.sent == 1 { after.deliveredAt = now }
            return (delivered, after)
        } catch {
            logger.warning("recording a push failed", metadata: ["error": "\(error)"])
            return (report, entry.pacing)
        }
    }

    /// Sends the claimed `entry`, whose budget slot is taken, and records APNs' answer; says
    /// whether APNs answered. (A push APNs did not answer may have reached the device: its slot
    /// stays spent, so that the server never sends more than the budget.)
    private func deliver(
        _ entry: PushOutboxEntry, credentials: APNsCredentials, client: APNsClient, now: Timestamp
    ) async -> (PassReport, answered: Bool) {
        var report = PassReport()
        var answered = false
        do {
            let notification = APNsNotification.change(
                for: entry, bundleID: credentials.bundleID,
                expiresAt: now.adding(settings.notificationLifetime).milliseconds / 1000)
            let answer = try await deliver(notification, entry: entry, credentials: credentials, client: client)
            answered = answer != nil
            let dimensions = [("kind", entry.kind.rawValue)]
            switch answer?.disposition {
            case .sent:
                try await database.pushOutbox.markSent(entry, now: now)
                Counter(label: "tandem_pushes_sent", dimensions: dimensions).increment()
                report.sent = 1
            case .tokenGone:
                try await database.push.remove(
                    token: entry.token, clientID: entry.clientID, environment: entry.environment,
                    unregisteredAt: answer?.unregisteredAt.map(Timestamp.init(milliseconds:)))
                try await database.pushOutbox.remove(entry, as: .refused)
                Counter(label: "tandem_pushes_refused", dimensions: dimensions + [("reason", answer?.reason ?? "Unregistered")]).increment()
                report.refused = 1
            case .refused:
                logger.error("APNs refused a push", metadata: [
                    "status": "\(answer?.status ?? 0)", "reason": "\(answer?.reason ?? "")", "client": "\(entry.clientID)",
                ])
                try await database.pushOutbox.remove(entry, as: .refused)
                Counter(label: "tandem_pushes_refused", dimensions: dimensions + [("reason", answer?.reason ?? "unknown")]).increment()
                report.refused = 1
            case .retryLater, .renewProviderToken, nil:
                if let answer, answer.status == 403 {
                    logger.error("APNs refused the provider token", metadata: [
                        "reason": "\(answer.reason ?? "")", "client": "\(entry.clientID)",
                    ])
                }
                try await database.pushOutbox.retry(entry, at: Timestamp(clock.now).adding(backoff(afterAttempt: entry.attempts + 1)))
                Counter(label: "tandem_pushes_retried", dimensions: dimensions).increment()
                report.retried = 1
            }
        } catch {
            logger.warning("recording a push failed", metadata: ["error": "\(error)"])
        }
        return (report, answered)
    }

    /// Sends `notification`, renewing the provider token once if APNs says it expired.
    ///
    /// - Returns: APNs' answer, or `nil` when none came.
    private func deliver(
        _ notification: APNsNotification, entry: PushOutboxEntry, credentials: APNsCredentials, client: APNsClient
    ) async throws(APNsError) -> APNsResponse? {
        var providerToken = try await providerTokens.token(for: credentials, now: Timestamp(clock.now))
        for attempt in 0..<2 {
            let answer: APNsResponse
            do {
                answer = try await client.send(notification, to: entry.token, in: entry.environment, providerToken: providerToken)
            } catch {
                logger.info("APNs could not be reached", metadata: ["error": "\(error)"])
                return nil
            }
            guard answer.disposition == .renewProviderToken, attempt == 0 else { return answer }
            providerToken = try await providerTokens.renew(for: credentials, rejected: providerToken, now: Timestamp(clock.now))
        }
        return nil
    }

    /// The wait before try `attempt + 1`: ``PushSettings/firstBackoff`` doubled per attempt up
    /// to ``PushSettings/maximumBackoff``, then a random half to all of it ("equal jitter"), so
    /// that pushes refused together do not come back together.
    func backoff(afterAttempt attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let ceiling = min(settings.firstBackoff * (1 << doublings), settings.maximumBackoff)
        return ceiling * Double.random(in: 0.5...1.0)
    }
}

extension PushDispatcher.PassReport {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: Self) {
        sent += other.sent
        refused += other.refused
        retried += other.retried
        postponed += other.postponed
        coalesced += other.coalesced
    }
}
