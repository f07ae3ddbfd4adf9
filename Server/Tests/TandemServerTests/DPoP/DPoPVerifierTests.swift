import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// A DPoP proof is accepted once by every server instance that shares the database (RFC 9449
/// §11.1): a replay to another instance is refused; a refused proof does not use up its `jti`;
/// the maintenance sweep forgets a proof once its window has passed.
@Suite("DPoP proof verification")
struct DPoPVerifierTests {
    static let tokenURL = "https://auth.tandem.test/oauth/token"

    static func proof(_ key: SoftwareDPoPKey, at date: Date, method: String = "POST") throws -> String {
        try DPoPProof.make(signer: key, method: method, url: URL(string: tokenURL)!, issuedAt: date)
    }

    @Test("a proof is accepted once, by whichever instance sees it first", arguments: TestBackend.allCases)
    func acceptedOnceAcrossInstances(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            // Two instances: each its own connections to the one database.
            try await database.withStorage { first in
                try await database.withStorage { second in
                    let a = DPoPVerifier(proofs: first.dpopProofs, clock: clock)
                    let b = DPoPVerifier(proofs: second.dpopProofs, clock: clock)
                    let key = SoftwareDPoPKey()
                    let proof = try Self.proof(key, at: clock.now)

                    let accepted = try await a.verify([proof], method: "POST", url: Self.tokenURL)
                    #expect(accepted?.publicKey.thumbprint == key.publicKey.thumbprint)
                    await #expect(throws: DPoPVerificationError.proof(.replayed)) { try await b.verify([proof], method: "POST", url: Self.tokenURL) }
                    await #expect(throws: DPoPVerificationError.proof(.replayed)) { try await a.verify([proof], method: "POST", url: Self.tokenURL) }
                    // A new proof of the same key is fine; no header is no proof.
                    #expect(try await b.verify([try Self.proof(key, at: clock.now)], method: "POST", url: Self.tokenURL) != nil)
                    #expect(try await b.verify([], method: "POST", url: Self.tokenURL) == nil)
                }
            }
        }
    }

    @Test func aRefusedProofDoesNotUseUpItsJTI() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            try await database.withStorage { storage in
                let verifier = DPoPVerifier(proofs: storage.dpopProofs, clock: clock)
                let proof = try Self.proof(SoftwareDPoPKey(), at: clock.now)
                await #expect(throws: DPoPVerificationError.proof(.methodMismatch)) {
                    try await verifier.verify([proof], method: "GET", url: Self.tokenURL)
                }
                #expect(try await verifier.verify([proof], method: "POST", url: Self.tokenURL) != nil)
                await #expect(throws: DPoPVerificationError.proof(.malformed("more than one DPoP header"))) {
                    try await verifier.verify([proof, proof], method: "POST", url: Self.tokenURL)
                }
            }
        }
    }

    @Test func theSweepForgetsProofsOnceTheirWindowHasPassed() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            try await database.withStorage { storage in
                let verifier = DPoPVerifier(proofs: storage.dpopProofs, clock: clock)
                _ = try await verifier.verify([try Self.proof(SoftwareDPoPKey(), at: clock.now)], method: "POST", url: Self.tokenURL)
                #expect(try await storage.dpopProofs.deleteExpiredProofs(now: Timestamp(clock.now.addingTimeInterval(300))) == 0, "still in its window")
                #expect(try await storage.dpopProofs.deleteExpiredProofs(now: Timestamp(clock.now.addingTimeInterval(302))) == 1)
                // Past its window a replay fails the iat check, so forgetting it accepts nothing new.
                let old = try Self.proof(SoftwareDPoPKey(), at: clock.now)
                clock.advance(by: .seconds(302))
                await #expect(throws: DPoPVerificationError.proof(.issuedAtOutOfWindow)) {
                    try await verifier.verify([old], method: "POST", url: Self.tokenURL)
                }
            }
        }
    }
}
