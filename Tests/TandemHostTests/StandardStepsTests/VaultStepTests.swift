import Foundation
import TandemAuth
import TandemHost
import TandemTestSupport
import TandemVault
import Testing

@Suite("The vault step creates and opens the vault under the server's passcode policy")
struct VaultStepTests {
    /// The server's policy: eight characters or more with a digit and a letter, seven attempts.
    static func flow() throws -> Flow {
        Flow([ConfigurationStep(source: try HostFixture.serverSource()), VaultStep(protection: .passcode(cost: HostFixture.cheapCost))])
    }

    @Test func onboardingCreatesTheVaultUnderTheConfiguredPolicy() async throws {
        let fixture = try HostFixture()
        let report = try await Self.flow().run(.onboard, in: fixture.context(passcode: "tandem2024"))

        #expect(report.result(of: "vault") == .completed("vault created under the server's passcode policy"))
        let status = try fixture.vault.status()
        #expect(status.exists)
        #expect(status.protection == .passcode)
        #expect(status.remainingAttempts == 7, "the server's seven attempts, not the default ten")
        #expect(!fixture.vault.isUnlocked, "a flow run without keepVaultUnlocked locks")
        try fixture.vault.unlock(passcode: "tandem2024")
    }

    @Test(arguments: [
        ("letters-only", [PasscodePolicy.Violation.missingCharacterClass(.digit)]),
        ("ab1", [.tooShort(minimum: 8)]),
    ])
    func aPasscodeThePolicyRejectsCreatesNoVault(passcode: String, violations: [PasscodePolicy.Violation]) async throws {
        let fixture = try HostFixture()
        #expect(PasscodePolicy.default.violations(for: "letters-only").isEmpty, "only the server's policy refuses it")

        let error = await #expect(throws: FlowError.self) { try await Self.flow().run(.onboard, in: fixture.context(passcode: passcode)) }
        guard case .stepFailed("vault", .onboard, let underlying)? = error else {
            Issue.record("expected the vault step to fail, got \(String(describing: error))")
            return
        }
        #expect(underlying as? VaultError == .policyViolation(violations))
        #expect(try !fixture.vault.status().exists)
    }

    @Test func restoringOpensTheVaultWithThePasscode() async throws {
        let fixture = try HostFixture()
        let configuration = try await onboard(fixture)

        let context = fixture.context(configuration: configuration, passcode: "tandem2024")
        let report = try await Self.flow().run(.restore, in: context, keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked"))
        #expect(fixture.vault.isUnlocked)
        #expect(try fixture.vault.data(forKey: "note") == Data("kept".utf8))
    }

    @Test func aWrongPasscodeOnRestoreFailsAndTheVaultStaysLocked() async throws {
        let fixture = try HostFixture()
        let configuration = try await onboard(fixture)

        let wrong = fixture.context(configuration: configuration, passcode: "wrong-passcode-1")
        let error = await #expect(throws: FlowError.self) { try await Self.flow().run(.restore, in: wrong, keepVaultUnlocked: true) }
        guard case .stepFailed("vault", .restore, let underlying)? = error else {
            Issue.record("expected the vault step to fail, got \(String(describing: error))")
            return
        }
        #expect(underlying as? VaultError == .wrongPasscode(remainingAttempts: 6))
        #expect(!fixture.vault.isUnlocked)
        #expect(try fixture.vault.status().failedAttempts == 1)
        #expect(throws: VaultError.locked) { try fixture.vault.data(forKey: "note") }

        try await Self.flow().run(.restore, in: fixture.context(configuration: configuration, passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(try fixture.vault.status().failedAttempts == 0, "the right passcode clears the count")
    }

    @Test func anOnboardingResumedAfterTheVaultWasCreatedUnlocksIt() async throws {
        let fixture = try HostFixture()
        try await onboard(fixture)

        let report = try await Self.flow().run(.onboard, in: fixture.context(passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("existing vault unlocked (onboarding resumed)"))
        #expect(try fixture.vault.data(forKey: "note") == Data("kept".utf8), "the same vault, not a new one")
    }

    // MARK: - Face ID

    static let reason = "Unlock Sales"

    static func biometricFlow() throws -> Flow {
        Flow([
            ConfigurationStep(source: try HostFixture.serverSource()),
            VaultStep(protection: .passcode(cost: HostFixture.cheapCost), biometricsReason: reason),
        ])
    }

    @Test func onboardingOffersFaceIDAndRestoringUsesItWithoutThePasscode() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let onboarding = fixture.context(passcode: "tandem2024")
        let report = try await Self.biometricFlow().run(.onboard, in: onboarding)
        #expect(report.result(of: "vault") == .completed("vault created under the server's passcode policy, biometric unlock enabled"))
        let configuration = try #require(onboarding.configuration)

        // No passcode prompt at all: Face ID opens the vault.
        let restore = try await Self.biometricFlow().run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        #expect(restore.result(of: "vault") == .completed("vault unlocked with biometrics"))
        #expect(fixture.vault.isUnlocked)
        #expect(biometrics.prompts == [Self.reason])
    }

    @Test func declinedFaceIDIsNotEnabled() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let report = try await Self.biometricFlow().run(.onboard, in: fixture.context(passcode: "tandem2024", confirmation: FixedConfirmation(false)))
        #expect(report.result(of: "vault") == .completed("vault created under the server's passcode policy"))
        #expect(try fixture.vault.status().biometricUnlockEnabled == false)
        #expect(biometrics.keys.isEmpty)
    }

    @Test func aCancelledFaceIDFallsBackToThePasscode() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let configuration = try await onboardWithFaceID(fixture)

        biometrics.answer = .cancel
        let report = try await Self.biometricFlow().run(
            .restore, in: fixture.context(configuration: configuration, passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked"))
        #expect(try fixture.vault.data(forKey: "note") == Data("kept".utf8))
        #expect(try fixture.vault.status().biometricUnlockEnabled, "a cancel changes nothing")
    }

    @Test func aChangedEnrolmentFallsBackToThePasscodeAndOffersFaceIDAgain() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let configuration = try await onboardWithFaceID(fixture)

        biometrics.answer = .biometryChanged
        let report = try await Self.biometricFlow().run(
            .restore, in: fixture.context(configuration: configuration, passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked with the passcode (biometrics changed; enabled again)"))
        fixture.vault.lock()

        biometrics.answer = .succeed
        let next = try await Self.biometricFlow().run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        #expect(next.result(of: "vault") == .completed("vault unlocked with biometrics"))
        #expect(try fixture.vault.data(forKey: "note") == Data("kept".utf8))
    }

    @Test func aServerPolicyForbiddingBiometricsRemovesThemAtTheNextRestore() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let configuration = try await onboardWithFaceID(fixture)
        // The administrator switches Face ID off; the phone learns it when the user next opens the app.
        fixture.server.state.withLock { $0.app.passcodePolicy.biometricsAllowed = false }

        let report = try await Self.biometricFlow().run(
            .restore, in: fixture.context(configuration: configuration, passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked"))
        #expect(biometrics.prompts.isEmpty, "Face ID is not even tried")
        #expect(biometrics.keys.isEmpty)
        let status = try fixture.vault.status()
        #expect(!status.biometricUnlockAllowed && !status.biometricUnlockEnabled)
    }

    /// Issue 37: whoever holds the phone may spend every passcode attempt but one; the owner,
    /// opening the app with Face ID, is told.
    @Test func aFaceIDUnlockAfterWrongPasscodesTellsTheUserHowManyAndWhatIsLeft() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let configuration = try await onboardWithFaceID(fixture)
        for _ in 0..<5 {
            #expect(throws: VaultError.self) { try fixture.vault.unlock(passcode: "wrong-passcode-1") }
        }

        let notices = CollectedNotices()
        let report = try await Self.biometricFlow().run(
            .restore, in: fixture.context(configuration: configuration, notice: notices), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked with biometrics (5 wrong passcodes told)"))
        #expect(notices.all == [VaultStep.failedPasscodesNotice(FailedPasscodeAttempts(count: 5, remainingAttempts: 2, onLimit: .lock(seconds: 3600)))])
        #expect(notices.all.first?.hasPrefix("5 wrong passcodes were entered since you last opened the app.") == true)
        #expect(notices.all.first?.contains("2 more wrong passcodes will lock the app") == true)
        fixture.vault.lock()

        // Told once: the next Face ID unlock has nothing to say.
        try await Self.biometricFlow().run(.restore, in: fixture.context(configuration: configuration, notice: notices), keepVaultUnlocked: true)
        #expect(notices.all.count == 1)
    }

    @Test func withNobodyToTellWrongPasscodesSendTheUserToThePasscodeInsteadOfFaceID() async throws {
        let biometrics = ScriptedBiometricSecretStore()
        let fixture = try HostFixture(biometrics: biometrics)
        let configuration = try await onboardWithFaceID(fixture)
        #expect(throws: VaultError.self) { try fixture.vault.unlock(passcode: "wrong-passcode-1") }

        let report = try await Self.biometricFlow().run(
            .restore, in: fixture.context(configuration: configuration, passcode: "tandem2024"), keepVaultUnlocked: true)
        #expect(report.result(of: "vault") == .completed("vault unlocked"))
        #expect(biometrics.prompts.isEmpty, "Face ID would have hidden the wrong passcode")
        #expect(try fixture.vault.status().failedAttempts == 0)
        fixture.vault.lock()

        // The passcode cleared them: Face ID is back.
        let next = try await Self.biometricFlow().run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        #expect(next.result(of: "vault") == .completed("vault unlocked with biometrics"))
    }

    /// Onboards with Face ID enabled and leaves an item in the vault, locked.
    private func onboardWithFaceID(_ fixture: HostFixture) async throws -> ClientConfiguration {
        let context = fixture.context(passcode: "tandem2024")
        try await Self.biometricFlow().run(.onboard, in: context, keepVaultUnlocked: true)
        try fixture.vault.set(Data("kept".utf8), forKey: "note")
        #expect(try fixture.vault.status().biometricUnlockEnabled)
        fixture.vault.lock()
        return try #require(context.configuration)
    }

    /// Onboards with the passcode `tandem2024` and leaves an item in the vault, locked.
    @discardableResult
    private func onboard(_ fixture: HostFixture) async throws -> ClientConfiguration {
        let context = fixture.context(passcode: "tandem2024")
        try await Self.flow().run(.onboard, in: context, keepVaultUnlocked: true)
        try fixture.vault.set(Data("kept".utf8), forKey: "note")
        fixture.vault.lock()
        return try #require(context.configuration)
    }
}
