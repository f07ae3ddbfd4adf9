import Foundation
import Logging
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemVault

/// The host's side of widget actions in one call: the action requests waiting in the shared
/// container (at most ``maximumRequestsPerRun``, oldest first) are checked, executed with the
/// host's own grant, and answered with an ``TandemSharedContainer/ActionResult`` the widget shows.
///
/// Per request, in order:
/// 1. a file that does not open is refused as **tampered** (its name is all the widget needs);
/// 2. past its expiry: **expired**, not sent;
/// 3. the vault is opened with the request's share (in the background) or the share is compared
///    with the extensions' current one (in the user's session): a share that does not open it
///    is refused (**wrong share**);
/// 4. a nonce the ``ActionLedger`` has as answered: **replayed**, not sent;
/// 5. an amount above the app's step-up threshold without a step-up key at hand (the
///    background): **needs app**, left pending for the app in the foreground;
/// 6. sent with `If-Match`, `Idempotency-Key`, the surface the request names as
///    `Tandem-Action-Origin` (so the server's audit says "from the widget") and the step-up
///    proof: done, conflict, refused by the server, or left pending when the server is out of reach.
///
/// The nonce is recorded as sent before the request leaves and as answered once the result is
/// written and the request removed: a host killed in between sends it again on restart with the
/// same idempotency key, and the server answers with the first result. The item is decided once.
///
/// - Important: In the background this opens the vault with each request's share and locks it
///   again, as `BrokeredFulfilment` does: run it with the vault locked, one at a time.
public struct ActionExecution: Sendable {
    /// The most request files one run opens and executes; the others wait for the next run,
    /// oldest first.
    ///
    /// Anything with App Group access can write request files, and anything with the shared
    /// keychain group can write ones that open: a flood must not turn one background run into
    /// hundreds of vault openings and server calls made with the user's grant. A person taps a
    /// few buttons between two runs; sixteen leaves room for that.
    public static let maximumRequestsPerRun = 16

    /// The host's vault.
    public let vault: Vault
    /// The shared container with the requests.
    public let container: SharedContainer
    /// The key requests and results are sealed under.
    public let sealingKey: SharedSealingKey
    /// The host's client.
    public let client: AppClient
    /// The app's action policy (its step-up threshold).
    public let policy: ActionPolicyDocument
    /// The key that signs step-up proofs, when the user is present (the app in the foreground,
    /// unlocked with the passcode or Face ID); `nil` in the background.
    public let stepUpKey: (any DPoPSigner)?
    private let logger: Logger
    private let clock: any WallClock

    /// An execution over `vault`, `container` and `client`; nothing happens until ``execute(currentShare:)``.
    public init(
        vault: Vault, container: SharedContainer, sealingKey: SharedSealingKey, client: AppClient, policy: ActionPolicyDocument,
        stepUpKey: (any DPoPSigner)? = nil, logger: Logger = Logger(label: "tandem.actions"), clock: any WallClock = SystemClock()
    ) {
        self.vault = vault
        self.container = container
        self.sealingKey = sealingKey
        self.client = client
        self.policy = policy
        self.stepUpKey = stepUpKey
        self.logger = logger
        self.clock = clock
    }

    /// Executes the waiting action requests: the ``maximumRequestsPerRun`` written longest ago.
    ///
    /// - Parameter currentShare: In the user's session (the vault already unlocked), the
    ///   extensions' current share, which each request's must be; `nil` in the background, where
    ///   each request's share opens the vault.
    /// - Returns: One outcome per request file opened, in order.
    /// - Throws: ``TandemSharedContainer/SharedContainerError/io(_:)`` only when the folder cannot be listed.
    public func execute(currentShare: AuxiliaryShare? = nil) async throws(SharedContainerError) -> [ActionExecutionOutcome] {
        var outcomes: [ActionExecutionOutcome] = []
        for reading in try container.actions.pending(sealingKey: sealingKey, limit: Self.maximumRequestsPerRun) {
            guard !Task.isCancelled else { break }
            switch reading {
            case .unreadable(let id, _):
                finish(id: id, draft: nil, .refused(.tampered))
                container.actions.discard(id: id)
                outcomes.append(ActionExecutionOutcome(id: id, draft: nil, outcome: .refused(.tampered)))
            case .request(let request):
                outcomes.append(await execute(request, currentShare: currentShare))
            }
        }
        return outcomes
    }

    /// Executes `request` alone, as an App Shortcut does with the request it just wrote; the
    /// other waiting requests stay for the next run.
    ///
    /// - Parameters:
    ///   - request: A request read from (or just written to) the shared container.
    ///   - currentShare: As for ``execute(currentShare:)``.
    /// - Returns: The outcome written back, or one whose `outcome` is `nil` when the request stays pending.
    public func execute(_ request: ActionRequest, currentShare: AuxiliaryShare? = nil) async -> ActionExecutionOutcome {
        ActionExecutionOutcome(id: request.id, draft: request.draft, outcome: await outcome(of: request, currentShare: currentShare))
    }

    /// Executes one request; returns the outcome written back, or `nil` when it stays pending.
    private func outcome(of request: ActionRequest, currentShare: AuxiliaryShare?) async -> ActionOutcome? {
        let now = clock.now
        if request.isExpired(at: now) { return answer(request, .expired) }
        if let currentShare {
            // Compared in constant time: the share is a secret.
            guard ConstantTime.equals(request.share.keyID, currentShare.keyID), ConstantTime.equals(request.share.bytes, currentShare.bytes) else {
                return answer(request, .refused(.wrongShare))
            }
            return await send(request)
        }
        do {
            try vault.unlock(pairedKey: request.share)
        } catch .wrongPairedKey {
            return answer(request, .refused(.wrongShare))
        } catch {
            logger.warning("the vault does not open for an action request", metadata: ["request": "\(request)", "error": "\(error)"])
            return nil
        }
        defer { vault.lock() }
        return await send(request)
    }

    /// With the vault open: checks the ledger and the step-up need, sends, answers.
    private func send(_ request: ActionRequest) async -> ActionOutcome? {
        let ledger = ActionLedger(vault: vault)
        let draft = request.draft
        do {
            if try ledger.phase(of: request.nonce) == .answered {
                logger.warning("an action request was replayed after it was executed", metadata: ["request": "\(request)"])
                return answer(request, .refused(.replayed))
            }
            // The amount the widget showed decides whether to try at all; the server decides on
            // its own figures and answers 401 when a proof is missing, whatever this says.
            let needsStepUp = policy.requiresStepUp(amount: draft.amount.flatMap { Decimal(string: $0) })
            if needsStepUp, stepUpKey == nil { return needsApp(request) }
            let tokens: any AccessTokenProvider
            switch try RequestCredentials.host(client: client, vault: vault, publishingEndIn: container) {
            case .tokens(let provider): tokens = provider
            case .apiKey: return answer(request, .refused(.server))
            }
            let actions = ItemActionClient(client: client, tokens: tokens)
            let proof = try stepUpProof(for: request, needed: needsStepUp, actions: actions)
            try ledger.record(request.nonce, .sent, expiresAt: request.expiresAt, now: clock.now)
            let sent = try await actions.send(
                draft.action, on: draft.address, ifMatch: draft.etag,
                idempotencyKey: request.idempotencyKey, stepUpProof: proof, origin: draft.surface)
            let outcome: ActionOutcome
            switch sent {
            case .done(let document): outcome = .done(status: document.status)
            case .conflict: outcome = .conflict
            case .stepUpRequired: return needsApp(request)
            case .refused(let status, let code):
                logger.notice("the server refused an action", metadata: ["request": "\(request)", "status": "\(status)", "code": "\(code ?? "-")"])
                outcome = .refused(.server)
            case .retryLater(let reason):
                logger.notice("an action waits for the next run", metadata: ["request": "\(request)", "reason": "\(reason)"])
                return nil
            }
            // The result first, the ledger after: a host killed in between finds no request (or,
            // killed before the request was removed, a nonce only *sent*, which it sends again and
            // the server answers from its record). Marked answered before the result was written,
            // the request itself would read as a replayed copy after a restart.
            let answered = answer(request, outcome)
            do {
                try ledger.record(request.nonce, .answered, expiresAt: request.expiresAt, now: clock.now)
            } catch {
                logger.warning("an answered action is not in the ledger; a copy would be sent again and replayed by the server", metadata: ["request": "\(request)"])
            }
            return answered
        } catch .notSignedIn, .reauthenticationRequired {
            return answer(request, .refused(.signedOut))
        } catch {
            logger.warning("an action request failed; it stays pending", metadata: ["request": "\(request)", "error": "\(error)"])
            return nil
        }
    }

    /// A step-up proof for `request` when `needed`, signed by ``stepUpKey``.
    private func stepUpProof(for request: ActionRequest, needed: Bool, actions: ItemActionClient) throws(AuthError) -> String? {
        guard needed, let stepUpKey else { return nil }
        let draft = request.draft
        let url = try actions.url(draft.action, on: draft.address)
        do {
            return try StepUpProof.make(
                signer: stepUpKey, url: url.absoluteString, action: draft.action, ifMatch: draft.etag, idempotencyKey: request.idempotencyKey,
                issuedAt: clock.now)
        } catch {
            throw .dpopKey("cannot sign the step-up proof: \(error)")
        }
    }

    /// Tells the widget the app must confirm; the request stays pending for the app's foreground run.
    private func needsApp(_ request: ActionRequest) -> ActionOutcome {
        finish(id: request.id, draft: request.draft, .needsApp)
        return .needsApp
    }

    /// Writes `outcome` back and removes the request.
    private func answer(_ request: ActionRequest, _ outcome: ActionOutcome) -> ActionOutcome {
        finish(id: request.id, draft: request.draft, outcome)
        container.actions.complete(request)
        return outcome
    }

    private func finish(id: String, draft: ActionRequest.Draft?, _ outcome: ActionOutcome) {
        do {
            try container.actions.write(ActionResult(id: id, draft: draft, outcome: outcome, at: clock.now), sealingKey: sealingKey)
        } catch {
            logger.warning("cannot write an action result", metadata: ["id": "\(id.prefix(12))", "error": "\(error)"])
        }
    }
}
