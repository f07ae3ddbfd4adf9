import Foundation
import TandemPlatform
import TandemProtocol

/// Reads the `DPoP` header of a request and accepts its proof once (RFC 9449 §4.3, §11.1):
/// the proof's own checks (`TandemProtocol/DPoPProof`), then its `jti` recorded for the key in
/// the database, so the same proof sent again, to this instance or any other sharing the
/// database, is ``DPoPError/replayed``. A proof refused by a check does not use up its `jti`.
///
/// ```swift
/// let proof = try await verifier.verify(request.headers[values: .dpop], method: "POST", url: tokenURL)
/// // proof?.publicKey.thumbprint: the jkt to bind the tokens to; nil: no proof sent
/// ```
struct DPoPVerifier: Sendable {
    let proofs: DPoPProofStore
    let clock: any WallClock
    /// How long ago a proof's `iat` may be.
    var maximumAge: Duration = .seconds(300)
    /// How far ahead of the server's clock `iat` may be.
    var futureSkew: Duration = .seconds(60)

    /// The proof in `headers` (the values of every `DPoP` header), checked and recorded; `nil`
    /// when there is none.
    ///
    /// - Parameters:
    ///   - url: The request's URL as clients reach the server (the issuer's scheme and host).
    ///   - accessToken: The access token sent with a resource request (`ath` is checked).
    ///   - nonces: The server's nonces, when the proof must carry a current one
    ///     (``DPoPError/nonceRequired(_:)`` names the nonce to use otherwise).
    /// - Throws: ``DPoPVerificationError``: the proof's ``DPoPError`` (two `DPoP` headers are
    ///   malformed), or storage failing.
    func verify(
        _ headers: [String], method: String, url: String, accessToken: String? = nil, nonces: DPoPNonces? = nil
    ) async throws(DPoPVerificationError)
        -> DPoPProof?
    {
        guard let header = headers.first else { return nil }
        guard headers.count == 1 else { throw .proof(.malformed("more than one DPoP header")) }
        let now = clock.now
        let proof: DPoPProof
        do {
            proof = try DPoPProof(parsing: header)
            try proof.check(
                method: method, url: url, now: now, maximumAge: maximumAge, futureSkew: futureSkew, accessToken: accessToken,
                nonce: nonces.map { nonces in (nonces.current(), nonces.accepts) })
        } catch {
            throw .proof(error)
        }
        // Kept until no check could accept it any more: `iat` plus the maximum age.
        let expiresAt = Timestamp(proof.issuedAt.addingTimeInterval(Double(maximumAge.components.seconds) + 1))
        let fresh: Bool
        do {
            fresh = try await proofs.recordProof(jkt: proof.publicKey.thumbprint, jti: proof.jti, expiresAt: expiresAt)
        } catch {
            throw .storage(error)
        }
        guard fresh else { throw .proof(.replayed) }
        return proof
    }
}

