import Foundation
import TandemProtocol

/// Step-up proofs (`Sources/TandemProtocol/Actions/StepUpProof.swift`), which the server reads
/// from the `Tandem-Step-Up` header of an action request: attacker text through base64url, JSON,
/// a JWK and an ECDSA signature, like a DPoP proof.
///
/// Invariants: a proof that reads was signed by the key in its header (reading it again gives the
/// same proof); when its URL is an http(s) target, it checks against its own URL, action,
/// If-Match and idempotency key at its own `iat`, and against no other action; and its key's thumbprint is a 43-character base64url SHA-256.
enum StepUpProofTarget {
    static let target = FuzzTarget(
        name: "step-up-proof",
        summary: "a Tandem-Step-Up header read with StepUpProof(parsing:); what reads verifies, checks against its own claims only, and reads the same again",
        seeds: seeds,
        run: run
    )

    /// Proofs of a fixed key for an approval and a rejection.
    static func seeds() -> [Data] {
        guard let key = try? SoftwareDPoPKey(rawRepresentation: Data(repeating: 0x2B, count: 32)) else { return [] }
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)
        return [(ItemAction.approve, "PR-1003", #""5f2a""#), (.reject, "PR-1004", #""77c1""#)].compactMap { action, item, etag in
            let url = "https://tandem.example.com" + APIPath.itemAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: item), action: action)
            return (try? StepUpProof.make(
                signer: key, url: url, action: action, ifMatch: etag, idempotencyKey: "idempotency-key-0001", issuedAt: issuedAt)).map { Data($0.utf8) }
        }
    }

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self), let proof = try? StepUpProof(parsing: text) else { return }
        Invariant.expect((try? StepUpProof(parsing: text)) == proof, "a proof read twice gave two proofs")
        let thumbprint = proof.publicKey.thumbprint
        Invariant.expect(thumbprint.utf8.count == 43 && Base64URL.decode(thumbprint)?.count == 32, "thumbprint \(thumbprint) is not a SHA-256")
        guard DPoPProof.normalizedURL(proof.url) != nil else { return }
        do {
            try proof.check(url: proof.url, action: proof.action, ifMatch: proof.ifMatch, idempotencyKey: proof.jti, now: proof.issuedAt)
        } catch {
            Invariant.expect(false, "a proof does not check against its own claims at its own iat: \(error)")
        }
        let other: ItemAction = proof.action == .approve ? .reject : .approve
        Invariant.expect(
            (try? proof.check(url: proof.url, action: other, ifMatch: proof.ifMatch, idempotencyKey: proof.jti, now: proof.issuedAt)) == nil,
            "a proof for \(proof.action) checks for \(other)")
    }
}
