import TandemProtocol
import TandemVault

/// The host's secure store. Onboarding creates the vault under the passcode the user chooses
/// (checked against the server's passcode policy), or resumes an onboarding that stopped after
/// creating it by unlocking it; restoring unlocks it with the passcode. The background flow opens
/// it only through the paired key each extension request carries, so this step skips it.
public struct VaultStep: Step {
    /// How the vault is protected.
    public enum Protection: Sendable {
        /// By the user's passcode (the default).
        case passcode(cost: KeyDerivationCost)
        /// By the device secret alone, for apps whose policy has no passcode.
        case deviceOnly
    }

    public let name = "vault"
    private let protection: Protection

    /// A vault step; `protection` applies when the vault is created.
    public init(protection: Protection = .passcode(cost: .calibrated())) {
        self.protection = protection
    }

    public func onboard(in context: FlowContext) async throws -> StepResult {
        let status = try context.vault.status()
        if status.exists {
            try await unlock(context, status: status)
            return .completed("existing vault unlocked (onboarding resumed)")
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
            return .completed("vault created under the server's passcode policy")
        }
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        let status = try context.vault.status()
        guard status.exists else { throw VaultError.notCreated }
        try await unlock(context, status: status)
        return .completed("vault unlocked")
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        .skipped("opened through each request's paired key")
    }

    private func unlock(_ context: FlowContext, status: VaultStatus) async throws {
        guard !context.vault.isUnlocked else { return }
        if status.protection == .deviceOnly {
            try context.vault.unlock()
            return
        }
        let policy = PasscodePolicy(context.configuration?.passcodePolicy ?? .default)
        let passcode = try await context.presenters.requirePasscode()
            .passcode(for: .unlock(remainingAttempts: status.remainingAttempts), policy: policy)
        try Task.checkCancellation()
        try context.vault.unlock(passcode: passcode)
    }
}
