import Foundation
import TandemPlatform
import TandemProtocol

// A sign-in's step-up key: enrolled with the grant it is for.
extension TokenEndpoint {
    /// The step-up key a sign-in request enrols (``StepUpKeyEnrolment`` in the `step_up_key`
    /// parameter: signed by the key, made for this endpoint, recent), or `nil` when it sends none.
    ///
    /// - Throws: `400 invalid_request` for an enrolment that does not verify, or whose key is
    ///   the request's DPoP key (a key that signs without the user would stand for their
    ///   presence); nothing is stored then.
    func enrolledStepUpKey(_ form: FormBody, proof: DPoPVerifier.CheckedProof?) throws(HTTPError) -> DPoPPublicKey? {
        guard let compact = form[StepUpKeyEnrolment.parameterName] else { return nil }
        let enrolment: StepUpKeyEnrolment
        do throws(StepUpProofError) {
            enrolment = try StepUpKeyEnrolment(parsing: compact)
            try enrolment.check(url: url, now: context.clock.now)
        } catch {
            throw HTTPError(.invalidRequest, "\(StepUpKeyEnrolment.parameterName): \(error.description)")
        }
        if let proof, ConstantTime.equals(proof.jkt, enrolment.publicKey.thumbprint) {
            throw HTTPError(.invalidRequest, TokenError.stepUpKeyMisuse.description)
        }
        return enrolment.publicKey
    }

    /// The `stepup.enrolled` audit line of a key enrolled with the sign-in `family`.
    func auditEnrolment(of key: DPoPPublicKey, for family: TokenFamily, source: String, now: Timestamp) async throws {
        try await context.audit.record(
            "stepup.enrolled", clientID: family.clientID, userID: family.userID, source: source,
            detail: "step-up key \(key.thumbprint.prefix(12)) enrolled with the sign-in \(family.id)", now: now)
    }
}
