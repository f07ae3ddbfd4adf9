import Foundation
import Testing

@testable import TandemProtocol

/// Step-up proofs as the host signs and the server checks them: bound to one request (URL,
/// action, If-Match, idempotency key), short-lived, and every way one can be wrong is its own
/// typed error.
@Suite("Step-up proofs")
struct StepUpProofTests {
    static let url = "https://tandem.example.com/v1/destinations/sales/Approvals/PR-1002/actions/approve"
    static let etag = "\"0123456789abcdef0123456789abcdef\""
    static let key = "9b2f6c1e-5d4a-4c3b-8a7e-1f0d2c3b4a59"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func make(
        signer: SoftwareDPoPKey = SoftwareDPoPKey(), url: String = url, action: ItemAction = .approve, ifMatch: String = etag,
        key: String = key, issuedAt: Date = now
    ) throws -> String {
        try StepUpProof.make(signer: signer, url: url, action: action, ifMatch: ifMatch, idempotencyKey: key, issuedAt: issuedAt)
    }

    @Test func aProofMadeHereReadsBackAndChecksForItsRequest() throws {
        let signer = SoftwareDPoPKey()
        let proof = try StepUpProof(parsing: try Self.make(signer: signer, url: Self.url + "?x=1"))
        #expect(proof.publicKey == signer.publicKey && proof.jti == Self.key && proof.action == .approve && proof.ifMatch == Self.etag)
        #expect(proof.url == Self.url, "no query")
        try proof.check(url: Self.url, action: .approve, ifMatch: Self.etag, idempotencyKey: Self.key, now: Self.now.addingTimeInterval(60))
        try proof.check(url: "https://TANDEM.example.com:443/v1/destinations/sales/Approvals/PR-1002/actions/approve", action: .approve,
                        ifMatch: Self.etag, idempotencyKey: Self.key, now: Self.now)
    }

    @Test func aProofForAnotherRequestOrTimeIsRefused() throws {
        let proof = try StepUpProof(parsing: try Self.make())
        #expect(throws: StepUpProofError.urlMismatch) {
            try proof.check(url: Self.url.replacingOccurrences(of: "PR-1002", with: "PR-1003"), action: .approve, ifMatch: Self.etag,
                            idempotencyKey: Self.key, now: Self.now)
        }
        #expect(throws: StepUpProofError.actionMismatch) {
            try proof.check(url: Self.url, action: .reject, ifMatch: Self.etag, idempotencyKey: Self.key, now: Self.now)
        }
        #expect(throws: StepUpProofError.ifMatchMismatch) {
            try proof.check(url: Self.url, action: .approve, ifMatch: "\"other\"", idempotencyKey: Self.key, now: Self.now)
        }
        #expect(throws: StepUpProofError.idempotencyKeyMismatch) {
            try proof.check(url: Self.url, action: .approve, ifMatch: Self.etag, idempotencyKey: UUID().uuidString, now: Self.now)
        }
        #expect(throws: StepUpProofError.issuedAtOutOfWindow) {
            try proof.check(url: Self.url, action: .approve, ifMatch: Self.etag, idempotencyKey: Self.key, now: Self.now.addingTimeInterval(61))
        }
        #expect(throws: StepUpProofError.issuedAtOutOfWindow) {
            try proof.check(url: Self.url, action: .approve, ifMatch: Self.etag, idempotencyKey: Self.key, now: Self.now.addingTimeInterval(-61))
        }
    }

    @Test func malformedOrForgedProofsAreTypedErrors() throws {
        #expect(throws: StepUpProofError.self) { try StepUpProof(parsing: "a.b.c") }
        #expect(throws: StepUpProofError.malformed("longer than 4096 bytes")) { try StepUpProof(parsing: String(repeating: "a", count: 5000)) }
        let dpop = try DPoPProof.make(signer: SoftwareDPoPKey(), method: "POST", url: URL(string: Self.url)!, issuedAt: Self.now)
        #expect(throws: StepUpProofError.wrongType) { try StepUpProof(parsing: dpop) }
        let good = try Self.make()
        let parts = good.split(separator: ".").map(String.init)
        let forgedClaims = Base64URL.encode(Data(#"{"action":"reject","htu":"\#(Self.url)","iat":1800000000,"if_match":"x","jti":"\#(Self.key)"}"#.utf8))
        #expect(throws: StepUpProofError.badSignature) { try StepUpProof(parsing: [parts[0], forgedClaims, parts[2]].joined(separator: ".")) }
        #expect(throws: StepUpProofError.self) { try StepUpProof(parsing: try Self.make(key: "short")) }
    }

    @Test func anEnrolmentProvesItsKeyForOneEndpointForTenMinutes() throws {
        let signer = SoftwareDPoPKey()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let url = "https://tandem.example/oauth/token"
        let compact = try StepUpKeyEnrolment.make(signer: signer, url: url + "?ignored", issuedAt: now)
        let read = try StepUpKeyEnrolment(parsing: compact)
        #expect(read.publicKey == signer.publicKey && !compact.contains("\"d\""))
        try read.check(url: url, now: now.addingTimeInterval(StepUpKeyEnrolment.defaultMaximumAge))
        #expect(throws: StepUpProofError.urlMismatch) { try read.check(url: "https://tandem.example/v1/step-up-key", now: now) }
        #expect(throws: StepUpProofError.issuedAtOutOfWindow) { try read.check(url: url, now: now.addingTimeInterval(601)) }
        #expect(throws: StepUpProofError.issuedAtOutOfWindow) { try read.check(url: url, now: now.addingTimeInterval(-61)) }

        // Signed by another key than the one it names, or a step-up proof or DPoP proof instead: refused.
        let parts = compact.split(separator: ".").map(String.init)
        let other = try StepUpKeyEnrolment.make(signer: SoftwareDPoPKey(), url: url, issuedAt: now).split(separator: ".").map(String.init)
        #expect(throws: StepUpProofError.badSignature) { try StepUpKeyEnrolment(parsing: [parts[0], parts[1], other[2]].joined(separator: ".")) }
        #expect(throws: StepUpProofError.wrongType) { try StepUpKeyEnrolment(parsing: try Self.make()) }
        let dpop = try DPoPProof.make(signer: signer, method: "POST", url: URL(string: url)!, issuedAt: now)
        #expect(throws: StepUpProofError.wrongType) { try StepUpKeyEnrolment(parsing: dpop) }

        let document = StepUpKeyDocument(enrolment: compact)
        #expect(try JSONDecoder().decode(StepUpKeyDocument.self, from: try JSONEncoder().encode(document)) == document)
    }
}
