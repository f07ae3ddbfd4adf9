import Foundation
import TandemProtocol

/// DPoP proofs (`Sources/TandemProtocol/DPoP/DPoPProof.swift`), which the server reads from the
/// `DPoP` header of any request: attacker text through base64url, JSON, a JWK and an ECDSA
/// signature.
///
/// Invariants: a proof that reads was signed by the key in its header over exactly its header
/// and claims (the parser verified it; reading it again gives the same proof); it checks
/// against its own method and URL at its own `iat` when that URL is an http(s) target; and its
/// key's thumbprint is a 43-character base64url SHA-256.
enum DPoPProofTarget {
    static let target = FuzzTarget(
        name: "dpop-proof",
        summary: "a DPoP header read with DPoPProof(parsing:); what reads verifies, checks against its own claims, and reads the same again",
        seeds: seeds,
        run: run
    )

    /// RFC 9449's example proof (Figure 2) and proofs of a fixed key: for the token endpoint,
    /// for a resource with `ath` and a nonce.
    static func seeds() -> [Data] {
        let rfc = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
        var seeds = [Data(rfc.utf8)]
        guard let key = try? SoftwareDPoPKey(rawRepresentation: Data(repeating: 0x2A, count: 32)) else { return seeds }
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)
        for (method, url, token, nonce) in [
            ("POST", "https://tandem.example.com/oauth/token", nil, nil),
            ("GET", "https://tandem.example.com/v1/destinations/sales/SalesOrders", "an-access-token", "n-1"),
        ] as [(String, String, String?, String?)] {
            if let target = URL(string: url),
                let proof = try? DPoPProof.make(signer: key, method: method, url: target, issuedAt: issuedAt, accessToken: token, nonce: nonce)
            {
                seeds.append(Data(proof.utf8))
            }
        }
        return seeds
    }

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self), let proof = try? DPoPProof(parsing: text) else { return }
        Invariant.expect((try? DPoPProof(parsing: text)) == proof, "a proof read twice gave two proofs")
        let thumbprint = proof.publicKey.thumbprint
        Invariant.expect(thumbprint.utf8.count == 43 && Base64URL.decode(thumbprint)?.count == 32, "thumbprint \(thumbprint) is not a SHA-256")
        guard DPoPProof.normalizedURL(proof.url) != nil else { return }
        do {
            try proof.check(method: proof.method, url: proof.url, now: proof.issuedAt)
        } catch {
            Invariant.expect(false, "a proof does not check against its own method and URL at its own iat: \(error)")
        }
    }
}
