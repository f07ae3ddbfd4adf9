import Logging
import TandemProtocol
import TandemVault

/// The host's secure store. Onboarding creates the vault under the passcode the user chooses
/// (checked against the server's passcode policy), or resumes an onboarding that stopped after
/// creating it by unlocking it; restoring unlocks it with the passcode. The background flow opens
/// it only through the paired key each extension request carries, so this step skips it.
///
/// Given a `biometricsReason`, and a vault given a `BiometricSecretStore`, the step offers Face ID
/// or Touch ID as the passcode's alternative where the server's policy allows it: restoring tries
/// it first and falls back to the passcode prompt on any biometric error; after onboarding, and
/// after a changed enrolment sent the user to the passcode, it asks the ``ConfirmationPresenter``
/// whether to enable it. A policy that no longer allows biometrics is applied before unlocking,
/// which revokes the biometric way in.
///
/// Face ID neither asks for the passcode nor gives back the attempts spent on it, so when wrong
/// passcodes were entered since the user last opened the vault, a biometric unlock tells the
/// user through the ``NoticePresenter`` (``failedPasscodesNotice(_:)``): under a policy that
/// wipes the vault, whoever held the phone may have left one attempt. A flow without a notice
/// presenter asks for the passcode instead whenever there would be something to tell.
public struct VaultStep: Step {
    /// How the vault is protected.
    public enum Protection: Sendable {
        /// By the user's passcode (the default).
        case passcode(cost: KeyDerivationCost)
        /// By the device secret alone, for apps whose policy has no passcode.
        case deviceOnly
    }

    /// What the step asks before it enables biometric unlock.
    public static let biometricsQuestion = "Unlock with Face ID or Touch ID next time?"

    public let name = "vault"
    private let protection: Protection
    private let biometricsReason: String?

    /// A vault step.
    ///
    /// - Parameters:
    ///   - protection: How the vault is protected when it is created.
    ///   - biometricsReason: Why the app asks for Face ID or Touch ID, shown in the system
    ///     prompt; `nil` (the default) never offers biometric unlock.
    public init(protection: Protection = .passcode(cost: .calibrated()), biometricsReason: String? = nil) {
        self.protection = protection
        self.biometricsReason = biometricsReason
    }

    public func onboard(in context: FlowContext) async throws -> StepResult {
        let status = try context.vault.status()
        if status.exists {
            let how = try await unlock(context, status: status)
            return .completed("existing vault unlocked\(how) (onboarding resumed)")
        }
        switch protection {
        case .deviceOnly:
            try context.vault.createWithoutPasscode()
            return .completed("vault created (device only)")
        case .passcode(let cost):
            let policy = PasscodePolicy(try context.requireConfiguration().passcodePolicy ?? .default)
            let passcode = try await context.presenters.requirePasscode().passcode(for: .create, policy: policy)
            try Task.checkCancellation()
            try context.vault.create(passcode: passcode, policy: policy, cost: cost)
            let enabled = await offerBiometrics(context)
            return .completed("vault created under the server's passcode policy\(enabled ? ", biometric unlock enabled" : "")")
        }
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        var status = try context.vault.status()
        guard status.exists else { throw VaultError.notCreated }
        if status.biometricUnlockAllowed, let document = context.configuration?.passcodePolicy, !document.biometricsAllowed {
            try context.vault.updatePolicy(PasscodePolicy(document))
            status = try context.vault.status()
        }
        let how = try await unlock(context, status: status)
        return .completed("vault unlocked\(how)")
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        .skipped("opened through each request's paired key")
    }

    /// Unlocks the vault, by Face ID when enabled, else (or when it fails) by the passcode; says how.
    private func unlock(_ context: FlowContext, status: VaultStatus) async throws -> String {
        guard !context.vault.isUnlocked else { return "" }
        if status.protection == .deviceOnly {
            try context.vault.unlock()
            return ""
        }
        var reenrol = false
        if let biometricsReason, status.biometricUnlockEnabled, canTellOfFailedPasscodes(context, status: status) {
            do throws(VaultError) {
                let failed = try await context.vault.unlock(biometricsReason: biometricsReason)
                guard failed.count > 0 else { return " with biometrics" }
                guard let notice = context.presenters.notice else {
                    context.logger.warning("wrong passcodes entered meanwhile and nobody to tell", metadata: ["failed": "\(failed.count)"])
                    return " with biometrics"
                }
                await notice.tell(Self.failedPasscodesNotice(failed))
                return " with biometrics (\(failed.count) wrong passcode\(failed.count == 1 ? "" : "s") told)"
            } catch {
                switch error {
                case .biometricsChanged: reenrol = true
                // The passcode is the way in when biometrics do not answer.
                case .biometricsCancelled, .biometricsUnavailable, .biometricsLockedOut, .biometricsNotEnabled, .biometricsNotAllowed: break
                default: throw error
                }
            }
        }
        let policy = PasscodePolicy(context.configuration?.passcodePolicy ?? .default)
        let passcode = try await context.presenters.requirePasscode()
            .passcode(for: .unlock(remainingAttempts: status.remainingAttempts), policy: policy)
        try Task.checkCancellation()
        try context.vault.unlock(passcode: passcode)
        if reenrol, await offerBiometrics(context) { return " with the passcode (biometrics changed; enabled again)" }
        return ""
    }

    /// Whether a Face ID unlock now leaves the user told of the wrong passcodes entered since
    /// they last opened the vault: there are none, or a notice presenter tells them. Otherwise
    /// the passcode it is, whose unlock clears them.
    private func canTellOfFailedPasscodes(_ context: FlowContext, status: VaultStatus) -> Bool {
        guard status.failedAttemptsSinceUnlock > 0, context.presenters.notice == nil else { return true }
        context.logger.notice(
            "wrong passcodes since the last unlock and no notice presenter to tell the user: asking for the passcode",
            metadata: ["failed": "\(status.failedAttemptsSinceUnlock)"])
        return false
    }

    /// What the user is told after a Face ID unlock when `failed` holds wrong passcodes: how
    /// many, that someone else may have entered them, and how many more the policy allows
    /// before it locks or erases.
    public static func failedPasscodesNotice(_ failed: FailedPasscodeAttempts) -> String {
        let entered = failed.count == 1 ? "A wrong passcode was entered" : "\(failed.count) wrong passcodes were entered"
        let more = failed.remainingAttempts == 1 ? "One more wrong passcode" : "\(failed.remainingAttempts) more wrong passcodes"
        let consequence =
            switch failed.onLimit {
            case .wipe: "will erase the app's data on this device"
            case .lock: "will lock the app for a while"
            }
        return "\(entered) since you last opened the app. If that was not you, someone has tried to open it on this device. "
            + "\(more) \(consequence); unlocking with your passcode starts the count again."
    }

    /// Asks whether to use Face ID next time and enables it; `true` when it did. A failure to
    /// enable does not fail the step: the passcode keeps working.
    private func offerBiometrics(_ context: FlowContext) async -> Bool {
        guard biometricsReason != nil, let confirmation = context.presenters.confirmation,
            let status = try? context.vault.status(), status.biometricUnlockAllowed, !status.biometricUnlockEnabled,
            await confirmation.confirm(Self.biometricsQuestion)
        else { return false }
        do {
            try context.vault.enableBiometricUnlock()
            return true
        } catch {
            context.logger.notice("biometric unlock not enabled", metadata: ["error": "\(error)"])
            return false
        }
    }
}
