/// The body of `PUT` ``APIPath/stepUpKey``: the public half of the host's step-up key, as a JWK
/// (`{"jwk": {"kty": "EC", "crv": "P-256", "x": …, "y": …}}`). The server registers it for the
/// sign-in (grant) whose token sends it; ``StepUpProof``s for that sign-in must be signed by it.
///
/// ```swift
/// let body = try JSONEncoder().encode(StepUpKeyDocument(publicKey: stepUpKey.publicKey))   // the host
/// let key = try JSONDecoder().decode(StepUpKeyDocument.self, from: body).publicKey()       // the server
/// ```
public struct StepUpKeyDocument: Codable, Equatable, Sendable {
    /// The key's JWK, as sent.
    public var jwk: [String: JSONValue]

    /// The document of `publicKey`.
    public init(publicKey: DPoPPublicKey) {
        if case .object(let members) = publicKey.jwk {
            jwk = members
        } else {
            jwk = [:]
        }
    }

    /// The key the JWK names.
    ///
    /// - Throws: ``StepUpProofError/unsupportedKey`` unless it is a P-256 public key
    ///   (`kty` `EC`, `crv` `P-256`, `x` and `y` of 32 bytes, no `d`).
    public func publicKey() throws(StepUpProofError) -> DPoPPublicKey {
        do {
            return try DPoPPublicKey(jwk: jwk)
        } catch {
            throw .unsupportedKey
        }
    }
}
