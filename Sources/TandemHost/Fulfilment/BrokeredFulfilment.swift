import Foundation
import Logging
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemVault

/// The host's side of brokered mode in one call: for each pending request, open the vault
/// with the request's auxiliary share, fetch, write the snapshot, complete the request — and
/// lock the vault again whatever happens.
///
/// Each request is handled on its own: a failure is reported in its ``FulfilmentOutcome`` and
/// leaves that request pending with nothing written, while the others proceed. A request whose
/// share does not open the vault is refused before anything is fetched.
///
/// ```swift
/// let broker = BrokeredFulfilment(vault: vault, container: container, sealingKey: sealingKey)
/// let outcomes = try await broker.fulfilPending { request, vault in
///     let key = try request.decodeKey(EntityKey.self)
///     let token = try await tokens.accessToken(from: vault)
///     let (body, etag) = try await api.entities(key, token: token)
///     return FetchedData(payload: body, etag: etag, lifetime: 15 * 60)
/// }
/// ```
///
/// - Important: The vault is opened with each request's share and locked at the end (and
///   between requests). `Vault/unlock(pairedKey:)` first ends any session the instance
///   already has, and a failed unlock leaves it locked. So run this with the vault locked —
///   in a background task, or with an instance of its own in another process — not while the
///   app's foreground code uses the same instance. For the same reason, run one fulfilment
///   at a time per vault.
public struct BrokeredFulfilment: Sendable {
    /// The host's vault, locked; opened only through the paired key.
    public let vault: Vault
    /// The shared container holding the requests and receiving the snapshots.
    public let container: SharedContainer
    /// The key the requests are sealed under.
    public let sealingKey: SharedSealingKey
    private let clock: any WallClock
    private let logger: Logger

    /// Describes a fulfilment; nothing happens until ``fulfil(_:fetch:)``.
    ///
    /// - Parameters:
    ///   - vault: The host's vault (with extension access enabled), normally locked.
    ///   - container: The shared container.
    ///   - sealingKey: The key from `SharedSealingKey/provision(in:)`.
    ///   - logger: Receives a line per refused or failed request; never a secret.
    ///   - clock: The current date, for the snapshots' fetch time.
    public init(
        vault: Vault, container: SharedContainer, sealingKey: SharedSealingKey,
        logger: Logger = Logger(label: "tandem.container"), clock: any WallClock = SystemClock()
    ) {
        self.vault = vault
        self.container = container
        self.sealingKey = sealingKey
        self.logger = logger
        self.clock = clock
    }

    /// Fulfils every pending request (see ``fulfil(_:fetch:)``).
    ///
    /// - Throws: `SharedContainerError/io(_:)` only when the requests folder cannot be listed.
    public func fulfilPending(
        fetch: (DataRequest, Vault) async throws -> FetchedData
    ) async throws(SharedContainerError) -> [FulfilmentOutcome] {
        await fulfil(try container.requests.pending(sealingKey: sealingKey), fetch: fetch)
    }

    /// Fulfils `requests` one after the other.
    ///
    /// - Parameters:
    ///   - requests: Requests from `RequestQueue/pending(sealingKey:)`.
    ///   - fetch: Gets the data for one request, with the vault unlocked (read the refresh
    ///     token from it, store a rotated one into it). Not called for a refused request.
    /// - Returns: One outcome per request, in order.
    public func fulfil(
        _ requests: [DataRequest], fetch: (DataRequest, Vault) async throws -> FetchedData
    ) async -> [FulfilmentOutcome] {
        var outcomes: [FulfilmentOutcome] = []
        for request in requests {
            let outcome = await fulfil(request, fetch: fetch)
            switch outcome {
            case .fulfilled: break
            case .refused: logger.warning("request refused: its share does not open the vault", metadata: ["request": "\(request)"])
            case .failed(_, let failure): logger.warning("request failed", metadata: ["request": "\(request)", "error": "\(failure)"])
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    private func fulfil(_ request: DataRequest, fetch: (DataRequest, Vault) async throws -> FetchedData) async -> FulfilmentOutcome {
        do {
            try vault.unlock(pairedKey: request.share)
        } catch .wrongPairedKey {
            container.requests.complete(request)
            return .refused(request)
        } catch {
            return .failed(request, .vault(error))
        }
        // Whatever happens next, the vault is locked again before the next request.
        defer { vault.lock() }
        let fetched: FetchedData
        do {
            fetched = try await fetch(request, vault)
        } catch {
            return .failed(request, .fetch(error))
        }
        // Locked before writing: the vault is not needed for the rest, and stays open no longer.
        vault.lock()
        return answer(request, with: fetched)
    }

    /// Fulfils `requests` with the vault the user already unlocked (the app in the foreground,
    /// after the passcode): a request whose share is not the extensions' current one,
    /// `currentShare`, is refused as a share that does not open the vault would be; the vault
    /// is neither unlocked nor locked here, so the user's session goes on.
    ///
    /// - Parameters:
    ///   - currentShare: The auxiliary share the extensions hold now (the host's copy).
    ///   - fetch: As for ``fulfil(_:fetch:)``.
    /// - Returns: One outcome per request, in order.
    public func fulfilInSession(
        _ requests: [DataRequest], currentShare: AuxiliaryShare, fetch: (DataRequest, Vault) async throws -> FetchedData
    ) async -> [FulfilmentOutcome] {
        var outcomes: [FulfilmentOutcome] = []
        for request in requests {
            // Compared in constant time: the share is a secret.
            guard ConstantTime.equals(request.share.keyID, currentShare.keyID), ConstantTime.equals(request.share.bytes, currentShare.bytes) else {
                container.requests.complete(request)
                logger.warning("request refused: its share is not the extensions' current one", metadata: ["request": "\(request)"])
                outcomes.append(.refused(request))
                continue
            }
            do {
                outcomes.append(answer(request, with: try await fetch(request, vault)))
            } catch {
                logger.warning("request failed", metadata: ["request": "\(request)", "error": "\(error)"])
                outcomes.append(.failed(request, .fetch(error)))
            }
        }
        return outcomes
    }

    /// Answers `request`, of a kind no data source answers, once: a snapshot saying so
    /// (``UnsupportedDataKind``, fresh for a day), and the request completed. The vault is not
    /// opened: nothing is fetched.
    public func answerUnsupported(_ request: DataRequest) -> FulfilmentOutcome {
        logger.notice("answering a request of a kind no data source answers", metadata: ["kind": "\(request.kind)"])
        return answer(request, with: FetchedData(payload: UnsupportedDataKind.payload(kind: request.kind), lifetime: UnsupportedDataKind.lifetime))
    }

    /// Writes the snapshot of `fetched` for `request` and completes the request.
    private func answer(_ request: DataRequest, with fetched: FetchedData) -> FulfilmentOutcome {
        let now = clock.now
        let snapshot = Snapshot(payload: fetched.payload, fetchedAt: now, etag: fetched.etag, expiresAt: now.addingTimeInterval(fetched.lifetime))
        do {
            try container.snapshots.write(snapshot, for: request)
        } catch {
            return .failed(request, .container(error))
        }
        // A newer request for the same data, written during the fetch, stays pending.
        container.requests.complete(request)
        return .fulfilled(request, snapshot)
    }
}
