import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `POST /v1/destinations/{destination}/{entitySet}/{item}/actions/{action}`: the host decides an
/// item of an actionable entity set (approve or reject) with its own grant.
///
/// The checks, in order: the credential must carry the `actions` scope and act for a user of the
/// host's audience (the widgets' read-only grant and API keys get `403 insufficient_scope`);
/// the user's rate (``TandemServerConfiguration/actionRateLimit``, `429`); an
/// `Idempotency-Key` (`400`) and `If-Match` (`428`); a known action (`404`). A key already
/// answered replays that answer — status, body and `ETag`, with `Idempotent-Replayed: true` —
/// when the request is the same (method, path, `If-Match`, body), and is refused with `422`
/// otherwise. Then the set's own rules (``ActionableSet``), which no scope overrides: the set
/// must be actionable (`404`) by the caller's app (`403 not_permitted`), the item must exist
/// (`404`), and the user must be one the set's ``ApproverRule`` names and not the item's
/// requester (`403 not_permitted`). `If-Match` must name the item's current ETag (`412`, the
/// current one in the `ETag` header and the body's `current_etag`), and it must be pending
/// (`409`). Above the set's step-up threshold it needs a step-up proof by the key enrolled for
/// the token's sign-in (``StepUpProof``, `401 insufficient_user_authentication` otherwise). The
/// `200`, `409` and `412` answers are kept under the key for a day; the others are not, so a
/// request refused for want of a step-up may be sent again with the same key and a proof.
///
/// An item of a customer's backend (a backend destination's set with `actions`) is decided by
/// the backend instead (``actOnBackend(_:claim:actor:source:now:)``): the same actor, key,
/// app and step-up checks here, the rest the backend's.
///
/// A decision is one transaction (``ActionStore/decide(_:action:claim:now:)``): the row's
/// `Status`, `DecidedBy`, `DecidedAt` and `ETag`, the set's version, the change feed and the
/// pushes owed; then the push doorbell rings. Two requests with the same key at once execute
/// once: the second waits for the first's transaction and replays its answer (it gets `409`
/// only in the rare case that it finds the key taken but not yet answered). Two requests with
/// different keys for the same version of an item: the second gets `412`. Every decision is an
/// audit line (`action.approved`, `action.rejected`, naming where the tap was made when the host
/// says: ``ItemActionRules/originHeader``), and so is every refusal (`action.refused`, through
/// ``ActionRefusals``: limited per app and address before anything is written, and sampled);
/// never with a token or a proof.
struct ItemActionEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The server's storage (actions, step-up keys, apps' policies).
    let database: ServerDatabase
    /// Where the decisions' audit lines go.
    let audit: AuditLog
    /// How refusals are limited and audited.
    let refusals: ActionRefusals
    /// The per-user rate limit.
    let limiter: RateLimiter
    /// The issuer URL: the origin a step-up proof's `htu` names.
    let issuer: String
    /// The largest body accepted (it is only fingerprinted).
    let maxBodySize: Int
    /// Receives failures, never a token or a proof.
    let logger: Logger
    /// What time it is: proofs' age, kept answers' lifetime, the decision's time.
    let clock: any WallClock
    /// Rung after a decision: the push sender sends what it owes at once.
    var pushDoorbell: PushDoorbell?
    /// Reads the destinations whose items live in a customer's backend (for their actions and
    /// for an item's amount); nil: no backend is called.
    var backends: BackendPageReader?
    /// Carries out actions on items that live in a customer's backend.
    var backendActions: BackendActionSender?

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/v1/destinations/:destination/:entitySet/:item/actions/:action") { request, context in
            try await act(
                request,
                address: ItemAddress(
                    destination: PathParameter.decoded(context.parameters.get("destination")),
                    entitySet: PathParameter.decoded(context.parameters.get("entitySet")), item: PathParameter.decoded(context.parameters.get("item"))),
                actionName: PathParameter.decoded(context.parameters.get("action")), source: context.sourceKey)
        }
    }

    private func act(
        _ request: Request, address: ItemAddress, actionName: String, source: String
    ) async throws(HTTPError) -> Response {
        let actor = try await ActionActor.check(
            request, authorizer: authorizer, refusals: refusals, source: source, logger: logger, clock: clock)
        if case .limited(let seconds) = limiter.acquire(actor.clientID + " " + actor.subject) {
            throw HTTPError(ResourceErrorCode.rateLimited, "too many actions; retry after \(seconds) s").retryAfter(seconds)
        }
        let action = try await ItemActionRequest.read(
            request, address: address, actionName: actionName, issuer: issuer,
            maxBodySize: maxBodySize)
        let claim = ActionStore.Claim(
            clientID: actor.clientID, subject: actor.subject, key: action.idempotencyKey, fingerprint: action.fingerprint)
        let now = Timestamp(clock.now)
        do {
            if let kept = try await database.actions.answer(for: claim, now: now) {
                return try await respond(kept, replayed: true, to: action, actor: actor, source: source)
            }
            guard let set = try await database.actions.actionableSet(destination: address.destination, entitySet: address.entitySet) else {
                if let answer = try await actOnBackend(action, claim: claim, actor: actor, source: source, now: now) { return answer }
                throw HTTPError(ResourceErrorCode.notFound, "\(address.destination)/\(address.entitySet) is not an actionable entity set")
            }
            guard set.apps.contains(actor.clientID) else {
                try await refuse(
                    "this app may not act on the items of \(address.destination)/\(address.entitySet)", actor: actor, action: action, source: source, now: now)
            }
            guard let item = try await database.actions.item(at: address) else {
                throw HTTPError(ResourceErrorCode.notFound, "no actionable item \(address.item.debugDescription) in \(address.destination)/\(address.entitySet)")
            }
            try await checkApprover(set, item: item, actor: actor, action: action, source: source, now: now)
            if let refusal = Self.refusal(of: item, for: action, fingerprint: claim.fingerprint) {
                let (answer, replayed) = try await database.actions.record(refusal, for: claim, now: now)
                return try await respond(answer, replayed: replayed, to: action, actor: actor, source: source)
            }
            try await checkStepUp(action, item: item, policy: set.stepUp, actor: actor, source: source, now: now)
            switch try await database.actions.decide(item, action: action.action, claim: claim, now: now) {
            case .decided(let document):
                pushDoorbell?.ring()
                await record(
                    "action.\(action.action.decidedStatus)", actor: actor, source: source,
                    detail: "\(address): \(action.action.decidedStatus)\(action.origin.map { " from the \($0.rawValue)" } ?? ""), "
                        + "ETag \(document.etag)", now: now)
                return try Self.success(ActionStore.json(document), etag: document.etag, replayed: false)
            case .answered(let kept):
                return try await respond(kept, replayed: true, to: action, actor: actor, source: source)
            case .itemChanged(let current):
                guard let refusal = Self.refusal(of: current, for: action, fingerprint: claim.fingerprint) else { throw HTTPError.unavailable }
                let (answer, replayed) = try await database.actions.record(refusal, for: claim, now: now)
                return try await respond(answer, replayed: replayed, to: action, actor: actor, source: source)
            case .itemGone:
                throw HTTPError(ResourceErrorCode.notFound, "no actionable item \(address.item.debugDescription) in \(address.destination)/\(address.entitySet)")
            case .inProgress:
                throw HTTPError(
                    ResourceErrorCode.alreadyDecided,
                    "a request with this \(ItemActionRules.idempotencyKeyHeader) is still being executed; send it again to get its answer")
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("an item action failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
    }

    /// The answer that depends on the item and is kept under the key: `412` when `If-Match` is
    /// not its ETag, `409` when it is no longer pending; `nil` when it can be decided.
    static func refusal(of item: ActionableItem, for action: ItemActionRequest, fingerprint: String) -> StoredActionAnswer? {
        if !action.ifMatchNames(item.etag) {
            let error = HTTPError(
                ResourceErrorCode.preconditionFailed, "the item changed since it was shown: its ETag is now \(item.etag)"
            ).member("current_etag", item.etag)
            return StoredActionAnswer(fingerprint: fingerprint, statusCode: 412, body: error.bodyJSON, etag: item.etag)
        }
        if item.status != ItemActionRules.pendingStatus {
            let error = HTTPError(
                ResourceErrorCode.alreadyDecided, "the item is \(item.status ?? "without a status"), not \(ItemActionRules.pendingStatus)"
            ).member("current_etag", item.etag).member("status", item.status ?? "")
            return StoredActionAnswer(fingerprint: fingerprint, statusCode: 409, body: error.bodyJSON, etag: item.etag)
        }
        return nil
    }

    /// Sends `answer`: a decision as `200`, a refusal as its error; `422` when it answered
    /// another request with the same key. A refusal is audited when it is first given.
    func respond(
        _ answer: StoredActionAnswer, replayed: Bool, to action: ItemActionRequest, actor: ActionActor, source: String
    ) async throws(HTTPError) -> Response {
        let now = Timestamp(clock.now)
        guard answer.fingerprint == action.fingerprint else {
            try await refusals.refuse(
                HTTPError(
                    ResourceErrorCode.idempotencyKeyReused,
                    "this \(ItemActionRules.idempotencyKeyHeader) was used for a different request; use a new key for a new request"),
                clientID: actor.clientID, userID: actor.subject, source: source, detail: "key reuse: \(Self.target(action))", now: now)
        }
        guard answer.statusCode != 200 else { return try Self.success(answer.body, etag: answer.etag, replayed: replayed) }
        let status = HTTPResponse.Status(code: answer.statusCode)
        guard var error = HTTPError(replaying: answer.body, status: status) else { throw .unavailable }
        if let etag = answer.etag { error = error.header(.eTag, etag) }
        if replayed {
            error = error.header(ItemActionRequest.replayedHeader, "true")
            throw error
        }
        let reason = answer.statusCode == 412 ? "conflict: the item changed" : "conflict: already decided"
        try await refusals.refuse(
            error, clientID: actor.clientID, userID: actor.subject, source: source, detail: "\(reason): \(Self.target(action))", now: now)
    }

    /// A `200` with a decision's body (``ItemActionResultDocument``), its `ETag`, `no-store`.
    private static func success(_ body: String, etag: String?, replayed: Bool) throws(HTTPError) -> Response {
        var response = JSONResponse.raw(body, status: .ok, noStore: true)
        if let etag { response.headers[.eTag] = etag }
        if replayed { response.headers[ItemActionRequest.replayedHeader] = "true" }
        return response
    }

    /// `destination/entitySet/item action`, for audit lines.
    static func target(_ action: ItemActionRequest) -> String {
        "\(action.address) \(action.action.rawValue)"
    }

    /// Refuses `action` with `403 not_permitted` for `reason`, through ``refusals``.
    func refuse(_ reason: String, actor: ActionActor, action: ItemActionRequest, source: String, now: Timestamp) async throws(HTTPError) -> Never {
        try await refusals.refuse(
            HTTPError(ResourceErrorCode.notPermitted, reason), clientID: actor.clientID, userID: actor.subject, source: source,
            detail: "not permitted: \(reason): \(Self.target(action))", now: now)
    }

    /// Writes an audit line; a failure to is logged, and the answer already decided stands.
    func record(_ kind: String, actor: ActionActor, source: String, detail: String, now: Timestamp) async {
        do {
            try await audit.record(kind, clientID: actor.clientID, userID: actor.subject, source: source, detail: detail, now: now)
        } catch {
            logger.error("writing an action's audit line failed", metadata: ["kind": "\(kind)", "error": "\(error)"])
        }
    }
}
