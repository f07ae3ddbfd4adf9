import Foundation
import TandemPlatform
import Testing

@testable import TandemVault

@Suite("Passcode policy")
struct PasscodePolicyTests {
    static let lockPolicy = PasscodePolicy(
        maximumAttempts: 5, attemptsBeforeDelay: 2, initialDelay: 10, maximumDelay: 60, onLimit: .lock(seconds: 600))

    @Test func wrongPasscodesCountDownThenDelayThenLock() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault(policy: Self.lockPolicy)
        vault.lock()

        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "wrong-1") }
        // The second failure reaches `attemptsBeforeDelay`: from now on each failure imposes a wait.
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 3)) { try vault.unlock(passcode: "wrong-2") }
        let firstWait = home.clock.now.addingTimeInterval(10)
        #expect(throws: VaultError.throttled(until: firstWait)) { try vault.unlock(passcode: VaultFixture.passcode) }
        #expect(try vault.status().nextAttemptAllowedAt == firstWait)

        home.clock.advance(by: 10)
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 2)) { try vault.unlock(passcode: "wrong-3") }
        // The wait doubles.
        home.clock.advance(by: 19)
        #expect(throws: VaultError.throttled(until: home.clock.now.addingTimeInterval(1))) {
            try vault.unlock(passcode: "wrong-4")
        }
        home.clock.advance(by: 1)
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 1)) { try vault.unlock(passcode: "wrong-4") }
        home.clock.advance(by: 40)
        let lockedUntil = home.clock.now.addingTimeInterval(600)
        #expect(throws: VaultError.lockedOut(until: lockedUntil)) { try vault.unlock(passcode: "wrong-5") }
        // Even the right passcode is refused while locked out.
        home.clock.advance(by: 599)
        #expect(throws: VaultError.lockedOut(until: lockedUntil)) { try vault.unlock(passcode: VaultFixture.passcode) }

        home.clock.advance(by: 1)
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.status().failedAttempts == 0)
    }

    @Test func afterALockoutOneMoreFailureLocksTwiceAsLong() throws {
        let home = try VaultFixture()
        let policy = PasscodePolicy(maximumAttempts: 2, attemptsBeforeDelay: 5, onLimit: .lock(seconds: 100))
        let vault = try home.createdVault(policy: policy)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 1)) { try vault.unlock(passcode: "wrong-1") }
        #expect(throws: VaultError.lockedOut(until: home.clock.now.addingTimeInterval(100))) { try vault.unlock(passcode: "wrong-2") }
        home.clock.advance(by: 100)
        // Not a fresh round: a single failure locks again, for twice as long.
        #expect(try vault.status().remainingAttempts == 1)
        #expect(throws: VaultError.lockedOut(until: home.clock.now.addingTimeInterval(200))) { try vault.unlock(passcode: "wrong-3") }
        home.clock.advance(by: 200)
        #expect(throws: VaultError.lockedOut(until: home.clock.now.addingTimeInterval(400))) { try vault.unlock(passcode: "wrong-4") }
        home.clock.advance(by: 400)
        try vault.unlock(passcode: VaultFixture.passcode)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 1)) { try vault.unlock(passcode: "wrong-5") }
    }

    @Test func settingTheClockBackDoesNotShortenAWait() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault(policy: Self.lockPolicy)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "wrong-1") }
        let failedAt = home.clock.now
        home.clock.advance(by: -3600)
        #expect(throws: VaultError.throttled(until: failedAt)) { try vault.unlock(passcode: VaultFixture.passcode) }
        home.clock.advance(by: 3600)
        try vault.unlock(passcode: VaultFixture.passcode)
    }

    @Test func anInterruptedFinalAttemptStillWipes() throws {
        // The final attempt is recorded as a failure before it is checked. A process killed
        // between the two leaves that record; the next attempt applies the wipe it earned.
        let home = try VaultFixture()
        let policy = PasscodePolicy(maximumAttempts: 3, attemptsBeforeDelay: 3, onLimit: .wipe)
        let vault = try home.createdVault(policy: policy)
        vault.lock()
        var interrupted = AttemptRecord(failures: 3)
        interrupted.lastAttemptAt = home.clock.now
        try interrupted.save(to: home.hostSecrets, key: "vault.attempts")
        #expect(throws: VaultError.wiped) { try vault.unlock(passcode: VaultFixture.passcode) }
        #expect(try vault.status().exists == false)
    }

    @Test func aDamagedAttemptRecordCountsAsOneAttemptFromTheLimit() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault(policy: Self.lockPolicy)
        vault.lock()
        try home.hostSecrets.set(Data("{not json".utf8), forKey: "vault.attempts")
        #expect(try vault.status().remainingAttempts == 1)
        #expect(throws: VaultError.lockedOut(until: home.clock.now.addingTimeInterval(600))) { try vault.unlock(passcode: "wrong") }
    }

    @Test func aCorrectPasscodeResetsTheCount() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault(policy: Self.lockPolicy)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "wrong") }
        try vault.unlock(passcode: VaultFixture.passcode)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "wrong") }
    }

    @Test func reachingTheLimitWipesWhenThePolicySaysSo() throws {
        let home = try VaultFixture()
        let policy = PasscodePolicy(maximumAttempts: 3, attemptsBeforeDelay: 3, onLimit: .wipe)
        let vault = try home.createdVault(policy: policy)
        try vault.set(Data("secret".utf8), forKey: "k")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 2)) { try vault.unlock(passcode: "wrong-1") }
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 1)) { try vault.unlock(passcode: "wrong-2") }
        #expect(throws: VaultError.wiped) { try vault.unlock(passcode: "wrong-3") }

        #expect(!FileManager.default.fileExists(atPath: home.vaultFile.path))
        #expect(try vault.status().exists == false)
        #expect(throws: VaultError.notCreated) { try vault.unlock(passcode: VaultFixture.passcode) }
        #expect(throws: VaultError.notCreated) { try vault.unlock(pairedKey: share) }
        #expect(try home.hostSecrets.data(forKey: "vault.device-secret") == nil)
        #expect(try home.hostSecrets.data(forKey: "vault.primary-shares") == nil)
    }

    @Test func theCountSurvivesPuttingAnEarlierVaultFileBack() throws {
        let home = try VaultFixture()
        do {
            let vault = try home.createdVault(policy: Self.lockPolicy)
            try vault.set(Data("secret".utf8), forKey: "k")
        }
        let copy = try home.snapshotFiles(to: "before-guessing")
        do {
            let vault = home.vault()
            #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "guess-1") }
        }
        try home.restoreFiles(from: copy)
        let vault = home.vault()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 3)) { try vault.unlock(passcode: "guess-2") }
        #expect(throws: VaultError.throttled(until: home.clock.now.addingTimeInterval(10))) {
            try vault.unlock(passcode: "guess-3")
        }
    }

    @Test func failedAttemptsAreRecordedInTheHostSecretStorage() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault(policy: Self.lockPolicy)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 4)) { try vault.unlock(passcode: "wrong") }
        let stored = try #require(try home.hostSecrets.data(forKey: "vault.attempts"))
        #expect(try JSONDecoder().decode(AttemptRecord.self, from: stored).failures == 1)
    }

    @Test func editingTheVaultFileCannotRelaxThePolicy() throws {
        let home = try VaultFixture()
        _ = try home.createdVault(policy: Self.lockPolicy)
        let tables = try home.rawDatabase().read { db in
            try String.fetchAll(db, sql: "SELECT key FROM vault_meta ORDER BY key")
        }
        #expect(!tables.contains("policy"))
        let stored = try #require(try home.hostSecrets.data(forKey: "vault.policy"))
        #expect(try JSONDecoder().decode(PasscodePolicy.self, from: stored) == Self.lockPolicy)
    }

    @Test func violationsListEveryMissingRequirement() {
        let policy = PasscodePolicy(minimumLength: 10, requiredCharacterClasses: [.uppercase, .lowercase, .digit, .symbol])
        #expect(policy.violations(for: "Abc-123456") == [])
        #expect(policy.violations(for: "abc") == [
            .tooShort(minimum: 10), .missingCharacterClass(.digit), .missingCharacterClass(.uppercase),
            .missingCharacterClass(.symbol),
        ])
    }

    @Test func delaysDoubleUpToTheMaximum() {
        let policy = PasscodePolicy(maximumAttempts: 20, attemptsBeforeDelay: 3, initialDelay: 30, maximumDelay: 200)
        #expect([1, 2, 3, 4, 5, 6, 7].map { policy.delay(afterFailures: $0) } == [0, 0, 30, 60, 120, 200, 200])
    }
}
