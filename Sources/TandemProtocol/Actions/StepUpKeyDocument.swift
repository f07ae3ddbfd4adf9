/// The body of `PUT` ``APIPath/stepUpKey``: the host's step-up key, enrolled by a
/// ``StepUpKeyEnrolment`` the key signed for that URL (`{"enrolment": "eyJ…"}`). The server keeps
/// the key for the sign-in (grant) whose token sends it, if that sign-in is recent and has none;
/// ``StepUpProof``s for that sign-in must then be signed by it. A key normally comes with the
/// sign-in itself (the token request's ``StepUpKeyEnrolment/parameterName``).
///
/// ```swift
/// let enrolment = try StepUpKeyEnrolment.make(signer: stepUpKey, url: stepUpKeyURL, issuedAt: now)
/// let body = try JSONEncoder().encode(StepUpKeyDocument(enrolment: enrolment))             // the host
/// let read = try StepUpKeyEnrolment(parsing: JSONDecoder().decode(StepUpKeyDocument.self, from: body).enrolment) // the server
/// ```
public struct StepUpKeyDocument: Codable, Equatable, Sendable {
    /// The enrolment, a compact JWS signed by the step-up key.
    public var enrolment: String

    /// The document carrying `enrolment`.
    public init(enrolment: String) {
        self.enrolment = enrolment
    }
}
