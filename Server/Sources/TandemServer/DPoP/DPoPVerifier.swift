import Foundation
import TandemPlatform
import TandemProtocol

/// Reads the `DPoP` header of a request and accepts its proof once (RFC 9449 §4.3, §11.1):
/// the proof's own checks (`TandemProtocol/DPoPProof`), then its `jti` recorded for the key in
/// the database, so the same proof sent again, to this instance or any other sharing the
/// database, is ``DPoPError/replayed``.
///
/// The two halves are apart so that only a request that authenticated writes anything:
/// ``check(_:method:url:accessToken:nonces:)`` reads and verifies (no database), and the
/// ``DPoPProofRecord`` it gives is recorded once the request's token or grant has been checked —
/// by ``spend(_:)``, or inside the transaction that grants the request. A refused proof, or a
/// proof with a request that is refused, leaves nothing behind.
///
/// ```swift
/// guard let checked = try verifier.check(request.headers[values: .dpop], method: "GET", url: url, accessToken: token) else { … }
/// // … the token is bound to checked.proof.publicKey.thumbprint …
/// try await verifier.spend(checked.record)
/// ```
struct DPoPVerifier: Sendable {
    /// A proof that passed every check but replay, and the record that spends it.
    struct CheckedProof: Sendable, Equatable {
        /// The proof.
        var proof: DPoPProof
        /// What recording it writes.
        var record: DPoPProofRecord
        /// The thumbprint of the key that signed it.
        var jkt: String { record.jkt }
    }

    let proofs: DPoPProofStore
    let clock: any WallClock
    /// How long ago a proof's `iat` may be.
    var maximumAge: Duration = .seconds(300)
    /// How far ahead of the server's clock `iat` may be.
    var futureSkew: Duration = .seconds(60)

    /// The proof in `headers` (the values of every `DPoP` header, or of another header that
    /// carries a proof), checked but not yet recorded; `nil` when there is none.
    ///
    /// - Parameters:
    ///   - url: The request's URL as clients reach the server (the issuer's scheme and host).
    ///   - accessToken: The access token the request uses (`ath` is checked).
    ///   - nonces: The server's nonces, when the proof must carry a current one
    ///     (``DPoPError/nonceRequired(_:)`` names the nonce to use otherwise).
    /// - Throws: The proof's ``DPoPError`` (two headers are malformed).
    func check(
        _ headers: [String], method: String, url: String, accessToken: String? = nil, nonces: DPoPNonces? = nil
    ) throws(DPoPError) -> CheckedProof? {
        guard let header = headers.first else { return nil }
        guard headers.count == 1 else { throw .malformed("more than one DPoP header") }
        let proof = try DPoPProof(parsing: header)
        try proof.check(
            method: method, url: url, now: clock.now, maximumAge: maximumAge, futureSkew: futureSkew, accessToken: accessToken,
            nonce: nonces.map { nonces in (nonces.current(), nonces.accepts) })
        // Kept until no check could accept it any more: `iat` plus the maximum age.
        let expiresAt = Timestamp(proof.issuedAt.addingTimeInterval(Double(maximumAge.components.seconds) + 1))
        return CheckedProof(proof: proof, record: DPoPProofRecord(jkt: proof.publicKey.thumbprint, jti: proof.jti, expiresAt: expiresAt))
    }

    /// Records a checked proof on its own, for a request that has authenticated.
    ///
    /// - Throws: ``DPoPVerificationError/proof(_:)`` with ``DPoPError/replayed`` when it was
    ///   seen before; ``DPoPVerificationError/storage(_:)`` when the database fails.
    func spend(_ record: DPoPProofRecord) async throws(DPoPVerificationError) {
        let fresh: Bool
        do {
            fresh = try await proofs.record(record)
        } catch {
            throw .storage(error)
        }
        guard fresh else { throw .proof(.replayed) }
    }

    /// ``check(_:method:url:accessToken:nonces:)`` and ``spend(_:)`` at once, for a request
    /// whose credential is already checked.
    func verify(
        _ headers: [String], method: String, url: String, accessToken: String? = nil, nonces: DPoPNonces? = nil
    ) async throws(DPoPVerificationError) -> DPoPProof? {
        let checked: CheckedProof?
        do {
            checked = try check(headers, method: method, url: url, accessToken: accessToken, nonces: nonces)
        } catch {
            throw .proof(error)
        }
        guard let checked else { return nil }
        try await spend(checked.record)
        return checked.proof
    }
}
