#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

extension OAuthClient {
    // MARK: - DPoP proofs of token requests (RFC 9449 §5, §8)

    /// The key to sign a token request's proof with, or `nil` for no proof.
    ///
    /// - Parameters:
    ///   - provider: The grant's key, if the caller has one.
    ///   - required: Whether the request must carry a proof (the grant is bound, or the
    ///     configuration requires DPoP).
    ///   - signsWhenGiven: Whether a given key signs even when no proof is required (a new grant
    ///     is bound to it); `false` for a refresh, which keeps a `Bearer` grant `Bearer`.
    /// - Throws: ``AuthError/dpopKey(_:)`` when a proof is required and there is no key, or the
    ///   key cannot be read.
    func proofSigner(_ provider: (any DPoPKeyProvider)?, required: Bool, signsWhenGiven: Bool = true) throws(AuthError) -> (any DPoPSigner)? {
        guard let provider else {
            if required { throw .dpopKey("the grant needs a DPoP proof, and no DPoP key was given for it") }
            return nil
        }
        guard required || signsWhenGiven else { return nil }
        return try provider.key()
    }

    /// Posts `parameters` to the token endpoint with a fresh proof by `signer` (none without
    /// one) and the last nonce the server gave, and returns the answer, whatever its status.
    ///
    /// Every answer's `DPoP-Nonce` is remembered for the next proof. An answer `use_dpop_nonce`
    /// with a nonce is retried once, with new proofs carrying that nonce; a second one is
    /// returned as it is, so a server that keeps changing its nonce cannot hold the client in a
    /// loop.
    ///
    /// - Parameters:
    ///   - accessToken: The access token the request uses (a token exchange's subject token):
    ///     `signer`'s proof carries its hash (`ath`), as a proof of that token's use.
    ///   - bindSigner: The key the new grant is to be bound to, when it is not `signer`: its
    ///     proof goes in ``DPoPProof/bindHeaderName``.
    func sendTokenRequest(
        _ parameters: [(String, String?)], signer: (any DPoPSigner)?, accessToken: String? = nil, bindSigner: (any DPoPSigner)? = nil
    ) async throws(AuthError) -> HTTPResponse {
        let endpoint = try Self.url(try await metadata().tokenEndpoint, field: "token_endpoint")
        var request = HTTPRequest.form(to: endpoint, parameters)
        guard signer != nil || bindSigner != nil else { return remembered(try await client.send(request)) }
        var retried = false
        while true {
            if let signer { request.headers[DPoPProof.headerName] = try proof(signer, endpoint: endpoint, accessToken: accessToken) }
            if let bindSigner { request.headers[DPoPProof.bindHeaderName] = try proof(bindSigner, endpoint: endpoint) }
            let response = remembered(try await client.send(request))
            guard !retried, Self.asksForNonce(response) else { return response }
            retried = true
        }
    }

    /// A ``StepUpKeyEnrolment`` of `stepUpKey` for the token endpoint, for a sign-in that enrols
    /// it (the token request's ``StepUpKeyEnrolment/parameterName``).
    ///
    /// - Throws: ``AuthError/stepUpKey(_:)`` when the key cannot sign (the user cancelled).
    func enrolment(of stepUpKey: any DPoPSigner) async throws(AuthError) -> String {
        let endpoint = try Self.url(try await metadata().tokenEndpoint, field: "token_endpoint")
        do {
            return try StepUpKeyEnrolment.make(signer: stepUpKey, url: endpoint.absoluteString, issuedAt: clock.now)
        } catch {
            throw .stepUpKey("the step-up key cannot sign its enrolment: \(error)")
        }
    }

    /// The last `DPoP-Nonce` a token endpoint answer carried, if any.
    public var lastDPoPNonce: String? { dpopNonce.withLock { $0 } }

    private func proof(_ signer: any DPoPSigner, endpoint: URL, accessToken: String? = nil) throws(AuthError) -> String {
        let nonce = dpopNonce.withLock { $0 }
        do {
            return try DPoPProof.make(
                signer: signer, method: HTTPRequest.Method.post.rawValue, url: endpoint, issuedAt: clock.now, accessToken: accessToken,
                nonce: nonce)
        } catch {
            throw .dpopKey("the DPoP key cannot sign a proof: \(error)")
        }
    }

    /// `response`, after keeping its `DPoP-Nonce` for the next proof.
    private func remembered(_ response: HTTPResponse) -> HTTPResponse {
        if let nonce = response.headers[DPoPProof.nonceHeaderName], !nonce.isEmpty {
            dpopNonce.withLock { $0 = nonce }
        }
        return response
    }

    /// Whether `response` is the server's `use_dpop_nonce` with a nonce to use (§8: a 400 from
    /// the token endpoint).
    private static func asksForNonce(_ response: HTTPResponse) -> Bool {
        guard response.status == 400, response.headers[DPoPProof.nonceHeaderName]?.isEmpty == false else { return false }
        return (try? JSONDecoder().decode(OAuthErrorResponse.self, from: response.body))?.code == .useDPoPNonce
    }
}
