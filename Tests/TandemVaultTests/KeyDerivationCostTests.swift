import Foundation
import Testing
@testable import TandemVault

@Suite("Key derivation cost")
struct KeyDerivationCostTests {
    @Test func calibrationReachesTheMinimumDurationOnThisMachine() throws {
        let parameters = try KeyDerivationCost.calibrated(minimumDuration: .milliseconds(100)).resolve()
        #expect(parameters.isValid)
        // Measure the chosen parameters again: one derivation must cost at least the target.
        // (A lower bound only: an upper bound would depend on the machine's load.)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try parameters.derive(passcode: "passcode", salt: Data(repeating: 1, count: 16))
        }
        #expect(elapsed >= .milliseconds(90), "scrypt N=2^\(parameters.log2N) r=\(parameters.r) p=\(parameters.p) took \(elapsed)")
    }

    @Test func theChosenCostIsStoredWithTheSalt() throws {
        let home = try VaultFixture()
        _ = try home.createdVault()
        let parameters = try home.rawDatabase().read { db in
            try Data.fetchOne(db, sql: "SELECT parameters FROM vault_keyslot WHERE id = 'passcode'")
        }
        let decoded = try PasscodeSlotParameters(encoded: try #require(parameters))
        #expect(decoded.scrypt == ScryptParameters(log2N: 10, r: 8, p: 1))
        #expect(decoded.salt.count == 16)
    }

    @Test func invalidFixedParametersAreRefused() {
        #expect(throws: VaultError.self) { try KeyDerivationCost.fixed(log2N: 40, r: 8, p: 1).resolve() }
    }
}
