#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel

/// Reading the container: the session status, the credentials, the snapshot; then, when the
/// rows are not fresh, a request (brokered) or a fetch (direct).
extension DataWidgetProvider {
    /// The reason shown when the host has not enabled extension access while signed in.
    static let notConnectedReason = "open the app to connect the widget"

    /// What `configuration` shows in `family` at `now`. With `mayAct` false nothing is written
    /// or fetched; with it true this is a reload, which also keeps the instance's reload records
    /// (see `DataWidgetProvider+Pacing`).
    func resolve(_ configuration: DataWidgetConfiguration, in family: WidgetFamily, now: Date, mayAct: Bool) async -> DataWidgetOutcome {
        let reloading = mayAct ? ReloadedInstance(kind: kind, family: family, configuration: configuration) : nil
        let outcome = await look(configuration, now: now, reloading: reloading)
        if let reloading, !outcome.isUnavailable { resetUnavailableCount(of: reloading) }
        return outcome
    }

    /// What `configuration` shows at `now`; when `reloading` is `nil` nothing is written or fetched.
    private func look(_ configuration: DataWidgetConfiguration, now: Date, reloading: ReloadedInstance?) async -> DataWidgetOutcome {
        let status: SessionStatus?
        do {
            status = try container.status()
        } catch {
            // A damaged status says nothing about the session: do not claim a sign-out.
            return unavailable("the session status is unreadable", error, now: now, reloading: reloading)
        }
        switch status?.state ?? .signedOut {
        case .signedOut:
            memory.forgetAll()
            return .signedOut
        case .reauthRequired:
            return .reauthRequired(reason: status?.reason ?? "sign in again")
        case .ready:
            break
        }
        let found: WidgetCredentials?
        do {
            found = try credentials.credentials()
        } catch {
            return unavailable("the widget's secrets cannot be read now", error, now: now, reloading: reloading)
        }
        guard let found else { return .reauthRequired(reason: Self.notConnectedReason) }
        let outcome = await rowsOutcome(of: configuration, credentials: found, status: status, now: now, reloading: reloading)
        // A direct-mode reload learns whether pushes reach the widget, and records what it asks for.
        guard let reloading, case .direct = mode, let sealingKey = found.sealingKey,
              let pacing = pushPacing(of: reloading, sealingKey: sealingKey, now: now)
        else { return outcome }
        return paced(outcome, by: pacing, now: now)
    }

    /// The rows of `configuration` at `now`: fresh from the snapshot, or, on a reload, fetched
    /// (direct) or requested (brokered) when the snapshot is not fresh.
    private func rowsOutcome(
        of configuration: DataWidgetConfiguration, credentials found: WidgetCredentials, status: SessionStatus?, now: Date,
        reloading: ReloadedInstance?
    ) async -> DataWidgetOutcome {
        let mayAct = reloading != nil
        if let fresh = readSnapshot(configuration, share: found.share, now: now, reloading: reloading) {
            // Pushed widgets look again: the reload may be WidgetKit's answer to a push.
            guard mayAct, case .direct(let client) = mode, let revalidation = schedule.revalidation,
                  let fetchedAt = memory.shown(configuration)?.fetchedAt, now.timeIntervalSince(fetchedAt) >= revalidation
            else { return fresh }
            let fetched = await fetch(configuration, client: client, credentials: found, now: now)
            if case .fresh = fetched { return fetched }
            return fresh
        }
        guard mayAct else { return .stale(retryAt: nil, waiting: true) }
        switch mode {
        case .brokered: return request(configuration, credentials: found, backgroundRefresh: status?.backgroundRefresh, now: now)
        case .direct(let client): return await fetch(configuration, client: client, credentials: found, now: now)
        }
    }

    /// The snapshot's rows, remembered; the outcome when they are fresh, `nil` when they are
    /// stale or missing. An unreadable file (device locked) is ``DataWidgetOutcome/unavailable(retryAt:)``.
    private func readSnapshot(
        _ configuration: DataWidgetConfiguration, share: AuxiliaryShare, now: Date, reloading: ReloadedInstance?
    ) -> DataWidgetOutcome? {
        let reading: SnapshotReading?
        do {
            reading = try container.snapshots.read(kind: EntitySetKey.kind, key: configuration.entitySetKey, using: share, now: now)
        } catch {
            return unavailable("the snapshot cannot be read now", error, now: now, reloading: reloading)
        }
        guard let snapshot = reading?.snapshot else { return nil }
        let expiry = schedule.expiry(of: snapshot)
        if let refusal = DataRefusal(payload: snapshot.payload) {
            guard now < expiry else { return nil }
            memory.forget(configuration)
            return refusal == .signInAgain ? .reauthRequired(reason: refusal.message) : .refused(refusal, retryAt: expiry)
        }
        guard let shown = rows(of: snapshot.payload, configuration, fetchedAt: snapshot.fetchedAt) else { return nil }
        memory.remember(shown, for: configuration)
        guard now < expiry else { return nil }
        // The server's last rows of a backend that is down: shown with their true age.
        return shown.isStale ? .stale(retryAt: expiry, waiting: false) : .fresh(shown, expiresAt: expiry)
    }

    /// Logs `error` with `message` and keeps the last rows, marked unavailable, until a retry
    /// that waits longer for each reload of `reloading` in a row that ends here.
    private func unavailable(_ message: Logger.Message, _ error: any Error, now: Date, reloading: ReloadedInstance?) -> DataWidgetOutcome {
        logger.notice(message, metadata: ["error": "\(error)"])
        return .unavailable(retryAt: now.addingTimeInterval(unavailableRetry(of: reloading)))
    }

    /// Brokered: asks the host for the rows and looks again after the schedule's request reload,
    /// or not before the host reloads the widget (the default); when the host gets no
    /// background time (`backgroundRefresh` off or Low Power Mode), says to open the app and
    /// looks again only after the longest request wait (the app reloads the widgets when it runs).
    private func request(
        _ configuration: DataWidgetConfiguration, credentials: WidgetCredentials, backgroundRefresh: BackgroundRefresh?, now: Date
    ) -> DataWidgetOutcome {
        guard let sealingKey = credentials.sealingKey else { return .reauthRequired(reason: Self.notConnectedReason) }
        let key = configuration.entitySetKey
        let submitted: DataRequest
        do {
            submitted = try container.requests.submit(kind: EntitySetKey.kind, key: key, share: credentials.share, sealingKey: sealingKey, now: now)
        } catch {
            logger.warning("cannot write the data request", metadata: ["error": "\(error)"])
            return .stale(retryAt: now.addingTimeInterval(schedule.retry), waiting: false)
        }
        if let backgroundRefresh, backgroundRefresh != .available {
            return .stale(retryAt: now.addingTimeInterval(schedule.maximumRequestReload), waiting: true, needsApp: true)
        }
        // The count lives in the sealed request, not in this process, which iOS discards between reloads.
        let delay = schedule.requestReload(afterRequest: submitted.attempt)
        return .stale(retryAt: delay.map(now.addingTimeInterval), waiting: true)
    }

    /// The rows of a page payload as `configuration` shows them; `nil` (logged) when it does not decode.
    func rows(of payload: Data, _ configuration: DataWidgetConfiguration, fetchedAt: Date) -> DataWidgetMemory.Shown? {
        do {
            let page = try EntitySetPage(json: payload)
            let rows = page.rows(
                keyField: configuration.keyField, valueField: configuration.valueField, entitySet: configuration.entitySet,
                destination: configuration.destination)
            return DataWidgetMemory.Shown(
                rows: Array(rows.prefix(configuration.limit)), fetchedAt: page.staleSince ?? fetchedAt, isStale: page.staleSince != nil)
        } catch {
            logger.warning("ignoring a page that does not decode", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

extension DataWidgetProvider {
    /// The catalog the host published, for the app's policies, or `nil` when there is none or it
    /// cannot be read now.
    func publishedCatalog() -> DestinationCatalog? {
        guard let share = try? credentials.credentials()?.share else { return nil }
        return try? DestinationCatalog.read(from: container, share: share, logger: logger)
    }
}

extension Timeline where Entry == WidgetContentEntry {
    /// The timeline with `policy` on every entry's content (`nil` changes nothing).
    func underLockScreenPolicy(_ policy: LockScreenRedaction?) -> Timeline {
        guard let policy else { return self }
        var copy = self
        for index in copy.entries.indices { copy.entries[index].content.lockScreen = policy }
        return copy
    }
}
