import Synchronization

/// The grants revoked recently enough that an access token minted from them may still be
/// unexpired, so the `/v1` endpoints refuse such a token before its `exp`.
///
/// The list lives in memory; the database (`token_families.revoked_at`) is what every instance
/// shares. A check costs a lock and a set lookup; at most once per ``refreshInterval`` one
/// request reads the revocations of the last ``window`` again (one indexed range scan) while the
/// others use the list as it is. Revocations made on this instance are added at once
/// (``insert(_:now:)``); those made on another instance bite here within ``refreshInterval``
/// (plus one query's time).
///
/// ```swift
/// let revocations = RevocationList(tokens: database.tokens, window: .seconds(300))
/// if await revocations.contains(familyID) { /* refuse the token */ }
/// ```
final class RevocationList: Sendable {
    /// Where revocations are read.
    let tokens: TokenStore
    /// How far back revocations matter: the access-token lifetime plus a margin for clock skew.
    let window: Duration
    /// How often the list is read again from the database.
    let refreshInterval: Duration

    private struct State {
        /// Revoked family ids, each with the time after which it no longer matters.
        var revoked: [String: Timestamp] = [:]
        var refreshedAt: Timestamp?
        var refreshing = false
    }

    private let state = Mutex(State())

    /// Creates an empty list, read from `tokens` on first use.
    ///
    /// - Parameters:
    ///   - tokens: Where revocations are recorded.
    ///   - window: The access-token lifetime; a minute is added for clock skew between instances.
    ///   - refreshInterval: How stale the list may be about other instances' revocations (default 1 s).
    init(tokens: TokenStore, window: Duration, refreshInterval: Duration = .seconds(1)) {
        self.tokens = tokens
        self.window = window + .seconds(60)
        self.refreshInterval = refreshInterval
    }

    /// Whether the grant `familyID` was revoked within the window; reads the database first when
    /// the list is older than ``refreshInterval`` and no other caller is reading it.
    func contains(_ familyID: String, now: Timestamp) async -> Bool {
        let refreshInterval = refreshInterval
        let (due, revoked) = state.withLock { state in
            let revoked = state.revoked[familyID].map { $0 > now } ?? false
            guard !state.refreshing, state.refreshedAt.map({ $0.adding(refreshInterval) <= now }) ?? true else { return (false, revoked) }
            state.refreshing = true
            return (true, revoked)
        }
        guard due else { return revoked }
        await refresh(now: now)
        return state.withLock { $0.revoked[familyID].map { $0 > now } ?? false }
    }

    /// Adds grants this instance has just revoked.
    func insert(_ familyIDs: [String], now: Timestamp) {
        let until = now.adding(window)
        state.withLock { state in
            for id in familyIDs { state.revoked[id] = until }
        }
    }

    /// Reads the window's revocations again. A failed read keeps the list as it was and is
    /// retried by the next check.
    private func refresh(now: Timestamp) async {
        let ids: [String]?
        do {
            ids = try await tokens.familiesRevoked(since: now.adding(.zero - window))
        } catch {
            ids = nil
        }
        let until = now.adding(window)
        state.withLock { state in
            state.refreshing = false
            guard let ids else { return }
            state.revoked = state.revoked.filter { $0.value > now }
            for id in ids where state.revoked[id] == nil { state.revoked[id] = until }
            state.refreshedAt = now
        }
    }
}
