#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel

/// Direct mode: the widget fetches the page with the extensions' own grant and writes the
/// snapshot itself, so other instances (and the next timeline) read it from the container.
extension DataWidgetProvider {
    /// Fetches `configuration`'s page; every failure becomes an outcome.
    func fetch(_ configuration: DataWidgetConfiguration, client: AppClient, credentials: WidgetCredentials, now: Date) async -> DataWidgetOutcome {
        let share = credentials.share
        let session = memory.session(for: share) {
            ExtensionSession(container: container, share: share, client: client, dpopKey: credentials.dpopKey)
        }
        let key = configuration.entitySetKey
        let response: HTTPResponse
        do throws(AuthError) {
            response = try await session.client.get(key.resourcePath, tokens: session.coordinator)
            if response.status == 403, let refusal = DataRefusal(payload: response.body) {
                memory.forget(configuration)
                return refusal == .signInAgain ? .reauthRequired(reason: refusal.message) : .refused(refusal, retryAt: now.addingTimeInterval(schedule.retry))
            }
            guard response.isSuccess else { throw AuthError(response: response) }
        } catch {
            return failed(error, session: session, now: now)
        }
        guard let shown = rows(of: response.body, configuration, fetchedAt: now) else {
            return .stale(retryAt: now.addingTimeInterval(schedule.retry), waiting: false)
        }
        let snapshot = Snapshot(payload: response.body, fetchedAt: now, etag: response.headers["ETag"], expiresAt: now.addingTimeInterval(schedule.freshness))
        do {
            try container.snapshots.write(snapshot, kind: EntitySetKey.kind, key: key, share: share)
        } catch {
            // The rows are shown anyway; the next timeline fetches again.
            logger.warning("cannot write the fetched snapshot", metadata: ["error": "\(error)"])
        }
        memory.remember(shown, for: configuration)
        return .fresh(shown, expiresAt: schedule.expiry(of: snapshot))
    }

    /// The outcome of a fetch that failed with `error`: the session's state when the grant is
    /// gone, otherwise the last rows until a retry (the server's `Retry-After` when it said).
    private func failed(_ error: AuthError, session: ExtensionSession, now: Date) -> DataWidgetOutcome {
        logger.warning("the direct fetch failed", metadata: ["error": "\(error)"])
        switch session.unavailableState(after: error) {
        case .signedOut?:
            memory.forgetAll()
            return .signedOut
        case .reauthRequired?, .ready?:
            return .reauthRequired(reason: (try? container.status()?.reason) ?? "sign in again")
        case nil:
            break
        }
        if case .rateLimited(let retryAfter?) = error {
            return .stale(retryAt: now.addingTimeInterval(max(retryAfter, 1)), waiting: false)
        }
        return .stale(retryAt: now.addingTimeInterval(schedule.retry), waiting: false)
    }
}
