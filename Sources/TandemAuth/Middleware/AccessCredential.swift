import TandemProtocol

/// An access token as a request presents it: `Authorization: Bearer <token>`, or for a token
/// bound to a DPoP key (RFC 9449 §7) `Authorization: DPoP <token>` with a proof signed by
/// ``proofKey``. Its description never shows the token.
public struct AccessCredential: Sendable, CustomStringConvertible {
    /// The access token.
    public var token: String
    /// The key the token is bound to, or `nil` for a bearer token.
    public var proofKey: (any DPoPSigner)?

    /// A credential of `token`, bound to `proofKey` when given.
    public init(token: String, proofKey: (any DPoPSigner)? = nil) {
        self.token = token
        self.proofKey = proofKey
    }

    /// The scheme, never the token.
    public var description: String { proofKey == nil ? "AccessCredential(Bearer)" : "AccessCredential(DPoP)" }
}
