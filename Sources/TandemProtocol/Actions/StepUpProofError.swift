/// Why a step-up proof (``StepUpProof``) was refused. The server answers each with `401`
/// ``ItemActionRules/stepUpRequiredError``; the description says which check failed, and the
/// host's answer is the same for all of them: step up again (passcode or Face ID) and sign a new
/// proof for this very request.
public enum StepUpProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS of three base64url parts, longer than ``StepUpProof/maximumLength``, or
    /// a header or claims that are not the JSON of a step-up proof, for the reason given.
    case malformed(String)
    /// The header's `typ` is not ``StepUpProof/type``.
    case wrongType
    /// The header's `alg` is not `ES256`, or its `jwk` is not a P-256 public key (or carries a
    /// private one).
    case unsupportedKey
    /// The signature does not verify under the header's key.
    case badSignature
    /// `htu` is not the action's URL.
    case urlMismatch
    /// `action` is not the action requested.
    case actionMismatch
    /// `if_match` is not the request's `If-Match`.
    case ifMatchMismatch
    /// `jti` is not the request's idempotency key.
    case idempotencyKeyMismatch
    /// `iat` is older than the proof's maximum age, or too far in the future.
    case issuedAtOutOfWindow
    /// The proof is signed by a key that is not the step-up key registered for this sign-in
    /// (``APIPath/stepUpKey``).
    case keyNotRegistered

    public var description: String {
        switch self {
        case .malformed(let reason): "the step-up proof is malformed: \(reason)"
        case .wrongType: "the step-up proof's typ is not \(StepUpProof.type)"
        case .unsupportedKey: "the step-up proof is not ES256 with a P-256 public key"
        case .badSignature: "the step-up proof's signature does not verify"
        case .urlMismatch: "the step-up proof is for another URL"
        case .actionMismatch: "the step-up proof is for another action"
        case .ifMatchMismatch: "the step-up proof is for another version of the item (if_match)"
        case .idempotencyKeyMismatch: "the step-up proof's jti is not the request's Idempotency-Key"
        case .issuedAtOutOfWindow: "the step-up proof was issued too long ago or in the future"
        case .keyNotRegistered: "the step-up proof is signed by a key not registered for this sign-in"
        }
    }

    /// The refusal of the shared JWS reading, in this domain's words.
    init(_ error: DPoPError) {
        switch error {
        case .malformed(let reason): self = .malformed(reason)
        case .wrongType: self = .wrongType
        case .badSignature: self = .badSignature
        default: self = .unsupportedKey
        }
    }
}
