import Hummingbird
import TandemBackends
import TandemPlatform
import TandemProtocol

// Actions on items that live in a customer's backend.
extension ItemActionEndpoint {
    /// Decides `action` on an item of a backend destination's set, or returns nil when
    /// `action`'s destination is no backend destination.
    ///
    /// The server checks what is its own to check — the actor, the key, that the set has actions
    /// and the caller's app is one of its apps, and the step-up above the set's threshold (the
    /// amount read from the user's own page; an item the page does not show needs the user
    /// present) — and the backend decides the rest: whether this user may decide this item, and
    /// whether `If-Match` still names it. Its `200`, `409` and `412` are kept under the key and
    /// replayed; an outage is not, so the same request may be sent again.
    ///
    /// - Throws: ``HTTPError``: `404` for a set without actions or an item the backend does not
    ///   show the user; `403 not_permitted` for another app; `401` for a missing step-up;
    ///   the backend's refusals and outages as ``BackendActionSender`` maps them.
    func actOnBackend(
        _ action: ItemActionRequest, claim: ActionStore.Claim, actor: ActionActor, source: String, now: Timestamp
    ) async throws -> Response? {
        guard let backends, let backendActions else { return nil }
        guard let configured = try await backends.destination(named: action.address.destination) else { return nil }
        guard let set = configured.destination.entitySets.first(where: { $0.name == action.address.entitySet }), let actions = set.actions else {
            throw HTTPError(ResourceErrorCode.notFound, "\(action.address.destination)/\(action.address.entitySet) is not an actionable entity set")
        }
        guard actions.apps.contains(actor.clientID) else {
            try await refuse(
                "this app may not act on the items of \(action.address.destination)/\(action.address.entitySet)", actor: actor, action: action,
                source: source, now: now)
        }
        let caller = RequestPrincipal(
            clientID: actor.clientID, subject: actor.subject, scopes: [OAuthScope.actions], audience: [OAuthScope.apiAudience],
            credential: .bearer, familyID: actor.familyID)
        if let threshold = actions.stepUpThreshold {
            let shown = await backends.row(action.address.item, of: configured, entitySet: set, for: caller)
            try await checkStepUp(
                action, row: (shown ?? [:]).mapValues(JSONValue.string), policy: ActionPolicyDocument(stepUpAbove: threshold, amountField: "amount"),
                actor: actor, source: source, now: now)
        }
        let principal = try await backends.principal(of: caller, at: configured.destination)
        let answer = try await backendActions.send(
            action.action, item: action.address.item, of: set, at: configured.destination, for: principal, ifMatch: action.ifMatch,
            idempotencyKey: action.idempotencyKey, fingerprint: claim.fingerprint, now: now)
        let (kept, replayed) = try await database.actions.record(answer, for: claim, now: now)
        if kept.statusCode == 200, !replayed {
            await record(
                "action.\(action.action.decidedStatus)", actor: actor, source: source,
                detail: "\(action.address): \(action.action.decidedStatus) by the backend"
                    + "\(action.origin.map { " from the \($0.rawValue)" } ?? ""), ETag \(kept.etag ?? "none")", now: now)
        }
        return try await respond(kept, replayed: replayed, to: action, actor: actor, source: source)
    }
}
