import TandemPlatform
import TandemProtocol

// The step-up an action above the app's threshold needs.
extension ItemActionEndpoint {
    /// Checks that `action` on `item` may run: at or below the app's threshold it may; above it
    /// (or with an amount that cannot be read) it needs a valid ``StepUpProof`` for this very
    /// request, signed by the step-up key registered for the actor's sign-in, at most
    /// ``StepUpProof/defaultMaximumAge`` old at `now`.
    ///
    /// - Throws: ``HTTPError`` `401 insufficient_user_authentication` (RFC 9470) with its
    ///   challenge, after an `action.refused` audit line; `503` when storage fails.
    func checkStepUp(_ action: ItemActionRequest, item: ActionableItem, actor: ActionActor, source: String, now: Timestamp) async throws {
        let policy = try await database.apps.actionPolicy(clientID: actor.clientID) ?? .default
        guard policy.requiresStepUp(amount: policy.amount(inRow: item.row)) else { return }
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
            refusal = "above \(policy.stepUpAbove) the action needs the user present: "
                + "send a \(ItemActionRules.stepUpHeader) proof signed by this sign-in's step-up key"
        }
        await record("action.refused", actor: actor, source: source, detail: "step-up: \(refusal): \(Self.target(action))", now: now)
        throw HTTPError(
            ResourceErrorCode.insufficientUserAuthentication, refusal,
            challenge: #"Bearer realm="tandem", error="\#(ItemActionRules.stepUpRequiredError)", error_description="\#(refusal)""#)
    }
}
