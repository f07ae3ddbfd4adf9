import TandemPlatform
import TandemProtocol

// The step-up an action above its set's threshold needs.
extension ItemActionEndpoint {
    /// Checks that `action` on `item` may run under the set's step-up `policy`: at or below its
    /// threshold it may; above it (or with an amount that cannot be read) it needs a valid
    /// ``StepUpProof`` for this very request, signed by the step-up key enrolled for the actor's
    /// sign-in, at most ``StepUpProof/defaultMaximumAge`` old at `now`.
    ///
    /// - Throws: ``HTTPError`` `401 insufficient_user_authentication` (RFC 9470) with its
    ///   challenge, through ``refusals`` (`429` past its bucket); `503` when storage fails.
    func checkStepUp(
        _ action: ItemActionRequest, item: ActionableItem, policy: ActionPolicyDocument, actor: ActionActor, source: String, now: Timestamp
    ) async throws {
        try await checkStepUp(action, row: item.row, policy: policy, actor: actor, source: source, now: now)
    }

    /// ``checkStepUp(_:item:policy:actor:source:now:)`` for an item known by its fields only
    /// (an item of a customer's backend, as the user's page shows it).
    func checkStepUp(
        _ action: ItemActionRequest, row: [String: JSONValue], policy: ActionPolicyDocument, actor: ActionActor, source: String, now: Timestamp
    ) async throws {
        guard policy.requiresStepUp(amount: policy.amount(inRow: row)) else { return }
        let refusal: String
        if let header = action.stepUpProof {
            let registered = try await database.stepUpKeys.thumbprint(clientID: actor.clientID, familyID: actor.familyID)
            do throws(StepUpProofError) {
                let proof = try StepUpProof(parsing: header)
                try proof.check(
                    url: action.url, action: action.action, ifMatch: action.ifMatch, idempotencyKey: action.idempotencyKey, now: now.date)
                guard let registered, ConstantTime.equals(registered, proof.publicKey.thumbprint) else { throw .keyNotRegistered }
                return
            } catch {
                refusal = error.description
            }
        } else {
            refusal = "above \(ActionPolicyDocument.text(of: policy.stepUpAbove)) the action needs the user present: "
                + "send a \(ItemActionRules.stepUpHeader) proof signed by this sign-in's step-up key"
        }
        try await refusals.refuse(
            HTTPError(
                ResourceErrorCode.insufficientUserAuthentication, refusal,
                challenge: #"Bearer realm="tandem", error="\#(ItemActionRules.stepUpRequiredError)", error_description="\#(refusal)""#),
            clientID: actor.clientID, userID: actor.subject, source: source, detail: "step-up: \(refusal): \(Self.target(action))", now: now)
    }

    /// Checks that the actor may decide `item` under `set`'s ``ApproverRule``, and is not its
    /// requester.
    ///
    /// - Throws: `403 not_permitted` through ``refusals``; `503` when storage fails.
    func checkApprover(
        _ set: ActionableSet, item: ActionableItem, actor: ActionActor, action: ItemActionRequest, source: String, now: Timestamp
    ) async throws {
        guard let user = try await database.accounts.user(id: actor.subject) else {
            try await refuse("the user no longer exists", actor: actor, action: action, source: source, now: now)
        }
        let accounts = database.accounts
        if let reason = try await set.refusal(deciding: item.row, by: user.username, isMember: { group in
            try await accounts.isMember(userID: user.id, of: group)
        }) {
            try await refuse(reason, actor: actor, action: action, source: source, now: now)
        }
    }
}
