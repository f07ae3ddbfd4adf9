import Foundation
import TandemPlatform
import TandemProtocol
import TandemTestSupport
import Testing

@testable import TandemVault

/// Issue 37: Face ID neither asks for the passcode nor gives back the attempts spent on it, so a
/// biometric unlock reports the wrong passcodes entered since the user last opened the vault,
/// and the policy's own count goes on until a correct passcode.
@Suite("Wrong passcodes before a Face ID unlock")
struct FailedPasscodesBeforeBiometricUnlockTests {
    private static let reason = "Unlock your account"

    @Test func aFaceIDUnlockLeavesThePolicysCountOfWrongPasscodesAsItWas() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.lockedVaultWithBiometrics(biometrics)
        try enterWrongPasscodes(3, into: vault)

        try await vault.unlock(biometricsReason: Self.reason)
        vault.lock()
        let status = try vault.status()
        #expect(status.failedAttempts == 3, "a face proves nothing about the passcode: the guesses still count")
        #expect(status.remainingAttempts == 97)
        try enterWrongPasscodes(1, into: vault)
        #expect(try vault.status().failedAttempts == 4)
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.status().failedAttempts == 0, "only the passcode clears them")
    }

    @Test func aFaceIDUnlockReportsTheWrongPasscodesSinceTheUserLastOpenedTheVaultWhateverTheWayIn() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.lockedVaultWithBiometrics(biometrics)
        try vault.unlock(passcode: VaultFixture.passcode)
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()

        try enterWrongPasscodes(2, into: vault)
        #expect(try vault.status().failedAttemptsSinceUnlock == 2)
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 2)
        vault.lock()
        #expect(try vault.status().failedAttemptsSinceUnlock == 0)

        // One more, then the background opens the vault by the paired key: the user saw nothing.
        try enterWrongPasscodes(1, into: vault)
        try vault.unlock(pairedKey: home.pairedShare())
        vault.lock()
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 1, "since the last Face ID unlock, not 3")
        vault.lock()
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 0)
        vault.lock()

        // The passcode is a way in too.
        try enterWrongPasscodes(2, into: vault)
        try vault.unlock(passcode: VaultFixture.passcode)
        vault.lock()
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 0)
    }

    @Test func underAWipePolicyFaceIDSaysTheNextWrongPasscodeErasesTheVault() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.lockedVaultWithBiometrics(biometrics, policy: PasscodePolicy(maximumAttempts: 5, attemptsBeforeDelay: 5, onLimit: .wipe))
        // Someone holding the phone spends every attempt but one.
        try enterWrongPasscodes(4, into: vault)

        let failed = try await vault.unlock(biometricsReason: Self.reason)
        #expect(failed == FailedPasscodeAttempts(count: 4, remainingAttempts: 1, onLimit: .wipe))
        #expect(vault.isUnlocked, "the vault opens all the same")
    }

    @Test func aFailedFaceIDKeepsTheCountForTheNextUnlock() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.lockedVaultWithBiometrics(biometrics)
        try enterWrongPasscodes(2, into: vault)

        biometrics.answer = .cancel
        await #expect(throws: VaultError.biometricsCancelled) { try await vault.unlock(biometricsReason: Self.reason) }
        biometrics.answer = .succeed
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 2)
    }

    @Test func aCountStoredBeforeThisReleaseIsReadAsThePolicysCount() async throws {
        let home = try VaultFixture()
        let biometrics = ScriptedBiometricSecretStore()
        let vault = try home.lockedVaultWithBiometrics(biometrics)
        // The record as the previous release wrote it: no count since the last unlock.
        try home.hostSecrets.set(Data(#"{"failures":2,"lockouts":0}"#.utf8), forKey: "vault.attempts")

        let status = try vault.status()
        #expect(status.failedAttempts == 2, "read, not taken for a damaged record")
        #expect(status.failedAttemptsSinceUnlock == 2)
        #expect(try await vault.unlock(biometricsReason: Self.reason).count == 2)
        #expect(try vault.status().failedAttempts == 2)
        #expect(try vault.status().failedAttemptsSinceUnlock == 0)
    }

    private func enterWrongPasscodes(_ count: Int, into vault: Vault) throws {
        for _ in 0..<count {
            #expect(throws: VaultError.self) { try vault.unlock(passcode: "wrong-passcode-1") }
        }
    }
}
