import Foundation
import TandemProtocol

/// Step-up key enrolments (`Sources/TandemProtocol/Actions/StepUpKeyEnrolment.swift`), which the
/// server reads from a sign-in's `step_up_key` parameter and from `PUT /v1/step-up-key`: attacker
/// text through base64url, JSON, a JWK and an ECDSA signature, like a step-up proof.
///
/// Invariants: an enrolment that reads was signed by the key in its header (reading it again gives
/// the same enrolment, and its key's thumbprint is a 43-character base64url SHA-256); when its URL
/// is an http(s) target, it checks against that URL at its own `iat` and against no other
/// endpoint.
enum StepUpKeyEnrolmentTarget {
    static let target = FuzzTarget(
        name: "step-up-key-enrolment",
        summary: "a step_up_key enrolment read with StepUpKeyEnrolment(parsing:); what reads verifies, checks for its own endpoint only, and reads the same again",
        seeds: seeds,
        run: run
    )

    /// Enrolments of a fixed key for the token endpoint and for PUT /v1/step-up-key.
    static func seeds() -> [Data] {
        guard let key = try? SoftwareDPoPKey(rawRepresentation: Data(repeating: 0x2C, count: 32)) else { return [] }
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)
        return ["/oauth/token", APIPath.stepUpKey].compactMap { path in
            (try? StepUpKeyEnrolment.make(signer: key, url: "https://tandem.example.com" + path, issuedAt: issuedAt)).map { Data($0.utf8) }
        }
    }

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self), let enrolment = try? StepUpKeyEnrolment(parsing: text) else { return }
        Invariant.expect((try? StepUpKeyEnrolment(parsing: text)) == enrolment, "an enrolment read twice gave two enrolments")
        let thumbprint = enrolment.publicKey.thumbprint
        Invariant.expect(thumbprint.utf8.count == 43 && Base64URL.decode(thumbprint)?.count == 32, "thumbprint \(thumbprint) is not a SHA-256")
        guard let url = DPoPProof.normalizedURL(enrolment.url) else { return }
        do {
            try enrolment.check(url: enrolment.url, now: enrolment.issuedAt)
        } catch {
            Invariant.expect(false, "an enrolment does not check against its own URL at its own iat: \(error)")
        }
        let other = url.hasSuffix("/oauth/token") ? url.replacingOccurrences(of: "/oauth/token", with: APIPath.stepUpKey) : url + "/other"
        Invariant.expect(
            (try? enrolment.check(url: other, now: enrolment.issuedAt)) == nil, "an enrolment for \(url) checks for \(other)")
    }
}
