import TandemProtocol

/// Where a grant's DPoP key comes from when a request needs a proof: a ``DPoPKeyStore`` in
/// apps (the key is read, or made, only when a proof is signed), a ``SoftwareDPoPKey`` held in
/// memory in tests.
///
/// ```swift
/// let oauth = OAuthClient(configuration: configuration, client: http, dpopKey: DPoPKeyStore.host(in: hostSecrets))
/// ```
public protocol DPoPKeyProvider: Sendable {
    /// The key that signs the grant's proofs.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when it cannot be read or made.
    func key() throws(AuthError) -> any DPoPSigner
}

extension DPoPKeyStore: DPoPKeyProvider {}

extension SoftwareDPoPKey: DPoPKeyProvider {
    /// The key itself.
    public func key() -> any DPoPSigner { self }
}
