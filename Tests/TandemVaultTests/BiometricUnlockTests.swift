import Foundation
import GRDB
import TandemPlatform
import TandemTestSupport
import Testing

@testable import TandemVault

@Suite("Biometric unlock")
struct BiometricUnlockTests {
    private static let reason = "Unlock your account"

    @Test func aRecognisedFaceOpensTheVaultWithoutThePasscode() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.set(Data("refresh".utf8), forKey: "refresh-token")
        try vault.enableBiometricUnlock()
        #expect(try vault.status().biometricUnlockEnabled)
        vault.lock()

        // A new process, as the app has after a restart.
        let restarted = home.vault(biometrics: biometrics)
        try await restarted.unlock(biometricsReason: Self.reason)
        #expect(restarted.isUnlocked)
        #expect(try restarted.data(forKey: "refresh-token") == Data("refresh".utf8))
        #expect(biometrics.prompts == [Self.reason])
        // The passcode still opens it too.
        restarted.lock()
        try restarted.unlock(passcode: VaultFixture.passcode)
        #expect(try restarted.status().failedAttempts == 0)
    }

    @Test func cancellingLeavesTheVaultLockedAndChangesNothing() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.set(Data("refresh".utf8), forKey: "refresh-token")
        try vault.enableBiometricUnlock()
        vault.lock()
        let storedBefore = try storedState(home)
        let secretsBefore = biometrics.keys

        biometrics.answer = .cancel
        await #expect(throws: VaultError.biometricsCancelled) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(!vault.isUnlocked)
        let storedAfter = try storedState(home)
        #expect(storedAfter.rows == storedBefore.rows && storedAfter.secrets == storedBefore.secrets)
        #expect(biometrics.keys == secretsBefore)
        #expect(try vault.status().biometricUnlockEnabled)

        biometrics.answer = .succeed
        try await vault.unlock(biometricsReason: Self.reason)
        #expect(try vault.data(forKey: "refresh-token") == Data("refresh".utf8))
    }

    @Test func aChangedEnrolmentFallsBackToThePasscodeWhichRemovesTheSlot() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.set(Data("refresh".utf8), forKey: "refresh-token")
        try vault.enableBiometricUnlock()
        vault.lock()

        biometrics.answer = .biometryChanged
        await #expect(throws: VaultError.biometricsChanged) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(!vault.isUnlocked)
        #expect(try vault.status().biometricUnlockEnabled == false)
        // From now on the user is not asked for a face that can open nothing.
        biometrics.answer = .succeed
        await #expect(throws: VaultError.biometricsNotEnabled) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(biometrics.prompts.count == 1)

        // The passcode opens the vault, and that unlock removes the dead slot.
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.data(forKey: "refresh-token") == Data("refresh".utf8))
        #expect(try slotKinds(home) == ["passcode"])
        #expect(try home.hostSecrets.data(forKey: "vault.biometric-revoked") == nil)

        // The app offers Face ID again, with the new enrolment.
        try vault.enableBiometricUnlock()
        vault.lock()
        try await vault.unlock(biometricsReason: Self.reason)
        #expect(try vault.data(forKey: "refresh-token") == Data("refresh".utf8))
        #expect(biometrics.keys.count == 1)
    }

    @Test func aPolicyWithoutBiometricsRefusesToEnableThem() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(policy: PasscodePolicy(biometricsAllowed: false), biometrics: biometrics)
        #expect(try vault.status().biometricUnlockAllowed == false)
        #expect(throws: VaultError.biometricsNotAllowed) { try vault.enableBiometricUnlock() }
        #expect(try slotKinds(home) == ["passcode"])
        #expect(biometrics.keys.isEmpty)
        vault.lock()
        await #expect(throws: VaultError.biometricsNotAllowed) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(biometrics.prompts.isEmpty)
    }

    @Test func aPolicyUpdateForbiddingBiometricsRemovesAnUnlockedVaultsSlotAtOnce() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()

        try vault.updatePolicy(PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100, biometricsAllowed: false))
        #expect(try slotKinds(home) == ["passcode"])
        #expect(biometrics.keys.isEmpty)
        #expect(throws: VaultError.biometricsNotAllowed) { try vault.enableBiometricUnlock() }
        vault.lock()
        await #expect(throws: VaultError.biometricsNotAllowed) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(biometrics.prompts.isEmpty)
        try vault.unlock(passcode: VaultFixture.passcode)
    }

    @Test func aPolicyUpdateForbiddingBiometricsOnALockedVaultRevokesTheSecretThenTheSlot() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        vault.lock()

        try vault.updatePolicy(PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100, biometricsAllowed: false))
        #expect(biometrics.keys.isEmpty)
        #expect(try vault.status().biometricUnlockEnabled == false)
        // Allowed again, the revoked slot still opens nothing: it was not the policy alone.
        try vault.updatePolicy(PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100))
        await #expect(throws: VaultError.biometricsNotEnabled) { try await vault.unlock(biometricsReason: Self.reason) }
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try slotKinds(home) == ["passcode"])
    }

    @Test func disablingRemovesTheSecretAndTheSlot() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        try vault.disableBiometricUnlock()
        #expect(try slotKinds(home) == ["passcode"])
        #expect(biometrics.keys.isEmpty)
        #expect(try vault.status().biometricUnlockEnabled == false)
        vault.lock()
        await #expect(throws: VaultError.biometricsNotEnabled) { try await vault.unlock(biometricsReason: Self.reason) }
        // Disabling what is not enabled does nothing.
        try vault.disableBiometricUnlock()
    }

    @Test func enablingAgainReplacesTheSecretAndLeavesOneBehindNone() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        let first = biometrics.keys
        try vault.enableBiometricUnlock()
        #expect(biometrics.keys.count == 1)
        #expect(biometrics.keys != first)
        vault.lock()
        try await vault.unlock(biometricsReason: Self.reason)
    }

    @Test func enablingNeedsAnUnlockedPasscodeVaultAndAvailableBiometry() throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        vault.lock()
        #expect(throws: VaultError.locked) { try vault.enableBiometricUnlock() }
        try vault.unlock(passcode: VaultFixture.passcode)
        biometrics.answer = .unavailable
        #expect(throws: VaultError.biometricsUnavailable) { try vault.enableBiometricUnlock() }
        #expect(try slotKinds(home) == ["passcode"])
        // An app that gave its vault no biometric store offers none.
        let without = home.vault()
        try without.unlock(passcode: VaultFixture.passcode)
        #expect(throws: VaultError.biometricsUnavailable) { try without.enableBiometricUnlock() }
        #expect(try without.status().biometricUnlockAllowed == false)

        let deviceOnly = try VaultFixture()
        let opensAlone = deviceOnly.vault(biometrics: biometrics)
        try opensAlone.createWithoutPasscode()
        biometrics.answer = .succeed
        #expect(throws: VaultError.noPasscodeSet) { try opensAlone.enableBiometricUnlock() }
    }

    @Test func unavailableOrLockedOutBiometryLeavesTheSlotForLater() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        vault.lock()
        biometrics.answer = .lockedOut
        await #expect(throws: VaultError.biometricsLockedOut) { try await vault.unlock(biometricsReason: Self.reason) }
        biometrics.answer = .unavailable
        await #expect(throws: VaultError.biometricsUnavailable) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(try slotKinds(home) == ["biometric", "passcode"])
        biometrics.answer = .succeed
        try await vault.unlock(biometricsReason: Self.reason)
    }

    @Test func flippingAnyByteOfTheBiometricSlotIsTamperingAndNobodyIsAsked() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        vault.lock()
        let slot = try #require(try biometricSlotRow(home))
        for column in ["parameters", "wrapped", "checksum"] {
            let original: Data = slot[column]
            for index in 0..<original.count {
                try home.editFile { db in
                    try db.execute(
                        sql: "UPDATE vault_keyslot SET \(column) = ? WHERE id = 'biometric'", arguments: [original.flippingBit(at: index)])
                }
                await #expect(throws: VaultError.tampered("key slot biometric")) { try await vault.unlock(biometricsReason: Self.reason) }
                #expect(!vault.isUnlocked)
            }
            try home.editFile { db in try db.execute(sql: "UPDATE vault_keyslot SET \(column) = ? WHERE id = 'biometric'", arguments: [original]) }
        }
        #expect(biometrics.prompts.isEmpty)
        try await vault.unlock(biometricsReason: Self.reason)
    }

    @Test func aSecretThatDoesNotOpenTheSlotIsTampering() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        vault.lock()
        let key = try #require(biometrics.keys.first)
        biometrics.overwrite(key, with: Data(repeating: 7, count: 32))
        await #expect(throws: VaultError.tampered("key slot biometric")) { try await vault.unlock(biometricsReason: Self.reason) }
        #expect(!vault.isUnlocked)
        try vault.unlock(passcode: VaultFixture.passcode)
    }

    @Test func destroyingTheVaultRemovesTheBiometricSecret() throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.createdVault(biometrics: biometrics)
        try vault.enableBiometricUnlock()
        try vault.destroy()
        #expect(biometrics.keys.isEmpty)
    }

    @Test func aPolicyStoredBeforeBiometricsExistedAllowsThem() throws {
        let stored = Data(
            #"{"attemptsBeforeDelay":5,"initialDelay":30,"maximumAttempts":10,"maximumDelay":3600,"minimumLength":6,"onLimit":{"lock":{"seconds":3600}},"requiredCharacterClasses":[]}"#
                .utf8)
        let policy = try JSONDecoder().decode(PasscodePolicy.self, from: stored)
        #expect(policy.biometricsAllowed)
        #expect(policy == PasscodePolicy())
    }

    /// Every row of the vault file and every host secret, as bytes (SQLite's own `-shm` index
    /// changes with any read, so the files themselves are not compared).
    private func storedState(_ home: VaultFixture) throws -> (rows: [[DatabaseValue]], secrets: [Data]) {
        let rows = try home.rawDatabase().read { db in
            try ["vault_meta", "vault_keyslot", "vault_item"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { Array($0.databaseValues) }
            }
        }
        let secrets = try home.allFiles(under: home.root.appendingPathComponent("host-secrets")).sorted { $0.0.path < $1.0.path }.map(\.1)
        return (rows, secrets)
    }

    private func biometricSlotRow(_ home: VaultFixture) throws -> Row? {
        try home.rawDatabase().read { db in
            try Row.fetchOne(db, sql: "SELECT parameters, wrapped, checksum FROM vault_keyslot WHERE id = 'biometric'")
        }
    }

    private func slotKinds(_ home: VaultFixture) throws -> [String] {
        try home.rawDatabase().read { db in try String.fetchAll(db, sql: "SELECT kind FROM vault_keyslot ORDER BY kind") }
    }
}
