#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol
import TandemSharedContainer

extension RefreshCoordinator {
    // MARK: - Single-flight refresh

    /// New tokens replacing those whose access token is `staleAccessToken`.
    ///
    /// With a `staleAccessToken` and the lease on file, another process is refreshing: this
    /// waits for it first, reading nothing meanwhile. Then, if the store holds another access
    /// token, someone refreshed since: that set is returned with no request. Otherwise this
    /// takes the lease (or waits for its holder and looks again), re-reads the store under the
    /// lease, redeems, saves, and releases.
    ///
    /// - Parameter staleAccessToken: The access token known to be stale (refused with 401 or
    ///   near expiry); `nil` to refresh whatever is stored now.
    /// - Throws: ``AuthError/notSignedIn``, ``AuthError/reauthenticationRequired`` (the store is
    ///   then cleared), ``AuthError/refreshTimedOut`` when the lease stays busy past several lease
    ///   durations, ``AuthError/cancelled``, ``AuthError/storage(_:)``, and the errors of the
    ///   token request.
    @discardableResult
    public func refresh(replacing staleAccessToken: String?) async throws(AuthError) -> TokenSet {
        // A refresh already under way (its lease is on file): wait for it before reading the
        // store or the lease. Every process that asks at the same moment as another ends up
        // here, and what it would read now is about to change; reading it would only take CPU
        // from the refresh it waits for. The lease is read (for its expiry) after 10 ms.
        var peerWasRefreshing = false
        if staleAccessToken != nil, try leaseIsOnFile() {
            try await waitForPeer(holder: nil)
            peerWasRefreshing = true
        }
        // The caller held tokens (it names a stale one): gone after a peer's refresh, they were
        // cleared since — that peer met `invalid_grant` — as after a wait in the loop below.
        guard let first = try store.load() else {
            throw peerWasRefreshing ? .reauthenticationRequired : .notSignedIn
        }
        let stale = staleAccessToken ?? first.accessToken
        if !ConstantTime.equals(first.accessToken, stale) {
            onEvent(.reusedPeerResult)
            return first
        }
        // A lease can be lost to expiry at most a few times before giving up: each wait is
        // bounded by the lease duration, so a refresh never hangs.
        for _ in 0..<4 {
            let lease: Lease
            switch try attempt() {
            case .held(let holder):
                try await waitForPeer(holder: holder)
                let look = try lookAgain(stale)
                if look.isPeerResult { return look.stored }
                continue
            case .acquired(let acquired, let brokeExpired):
                if brokeExpired != nil { onEvent(.brokeExpiredLease) }
                lease = acquired
            }
            onEvent(.leaseAcquired)
            defer { release(lease) }
            // Double check under the lease: a peer may have saved just before we took it.
            let underLease = try lookAgain(stale)
            if underLease.isPeerResult { return underLease.stored }
            return try await redeemAndSave(underLease.stored)
        }
        throw .refreshTimedOut
    }

    /// The stored tokens, and whether they are a peer's result (their access token is not the
    /// stale one); reports ``RefreshEvent/reusedPeerResult`` when they are.
    ///
    /// - Throws: ``AuthError/reauthenticationRequired`` when the store was emptied after we saw
    ///   tokens: a peer met `invalid_grant` and cleared it.
    private func lookAgain(_ stale: String) throws(AuthError) -> (stored: TokenSet, isPeerResult: Bool) {
        guard let stored = try store.load() else { throw .reauthenticationRequired }
        let isPeerResult = !ConstantTime.equals(stored.accessToken, stale)
        if isPeerResult { onEvent(.reusedPeerResult) }
        return (stored, isPeerResult)
    }

    private func redeemAndSave(_ current: TokenSet) async throws(AuthError) -> TokenSet {
        let fresh: TokenSet
        do {
            fresh = try await redeem(current)
        } catch .reauthenticationRequired {
            logger.notice("grant is gone; clearing tokens", metadata: ["lease": "\(leaseName)"])
            try store.clear()
            onReauthenticationRequired()
            onEvent(.reauthenticationRequired)
            throw .reauthenticationRequired
        }
        // Saved before the lease is released, so a waiting peer finds the new tokens.
        try store.save(fresh)
        onEvent(.refreshed)
        logger.info("tokens refreshed", metadata: ["lease": "\(leaseName)"])
        return fresh
    }

    // MARK: - Lease

    private func attempt() throws(AuthError) -> LeaseAttempt {
        do {
            return try leases.attempt(leaseName, duration: leaseDuration, now: clock.now)
        } catch {
            throw .storage("cannot take the refresh lease: \(error)")
        }
    }

    private func release(_ lease: Lease) {
        do {
            try leases.release(lease)
        } catch {
            // It expires by itself; peers then break it.
            logger.warning("cannot release the refresh lease", metadata: ["error": "\(error)"])
        }
    }

    private func leaseIsOnFile() throws(AuthError) -> Bool {
        do {
            return try leases.isOnFile(leaseName)
        } catch {
            throw .storage("cannot look for the refresh lease: \(error)")
        }
    }

    /// Returns once `holder`'s lease (or, with `nil`, whatever lease is on file, taken for live
    /// for its first 10 ms) is released or expired, or after a little more than one lease
    /// duration; the caller then looks again.
    private func waitForPeer(holder: Lease?) async throws(AuthError) {
        let started = ContinuousClock.now
        let timeout = Duration.seconds(leaseDuration + 1)
        do {
            if let holder {
                try await leases.wait(forReleaseOf: holder, duration: leaseDuration, timeout: timeout, clock: clock)
            } else {
                try await leases.wait(for: leaseName, duration: leaseDuration, timeout: timeout, expiryCheckDelay: .milliseconds(10), clock: clock)
            }
        } catch .timedOut {
            // Still held: the next round breaks it if it expired, or gives up.
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .storage("cannot read the refresh lease: \(error)")
        }
        let waited = ContinuousClock.now - started
        onEvent(.waitedForPeer(waited.timeInterval))
    }
}
