import Foundation
import TandemPlatform
import TandemVault

/// A `BiometricSecretStore` that plays the keychain and the Face ID prompt on Linux: it keeps
/// its secrets in memory and answers each prompt as the test told it to.
///
/// ```swift
/// let biometrics = ScriptedBiometricSecretStore()
/// let vault = Vault(directory: directory, secrets: secrets, biometrics: biometrics)
/// biometrics.answer = .biometryChanged   // someone enrolled another face
/// ```
public final class ScriptedBiometricSecretStore: BiometricSecretStore {
    /// What the next prompts do.
    public enum Answer: Sendable {
        /// The user is recognised.
        case succeed
        /// The user dismisses the prompt.
        case cancel
        /// A face or finger was enrolled since: the keychain invalidated every item, as iOS
        /// does for items bound to `.biometryCurrentSet`.
        case biometryChanged
        /// No biometry on this device, or none enrolled.
        case unavailable
        /// Too many failed attempts.
        case lockedOut
    }

    private struct State {
        var secrets: [String: Data] = [:]
        var answer = Answer.succeed
        var prompts: [String] = []
    }

    private let state = Locked(State())

    /// A store holding no secret, whose prompts succeed.
    public init() {}

    /// How the next prompts (and stores) answer.
    public var answer: Answer {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// The reasons of the prompts shown so far.
    public var prompts: [String] { state.withLock { $0.prompts } }

    /// The names of the secrets held now.
    public var keys: Set<String> { state.withLock { Set($0.secrets.keys) } }

    public func set(_ secret: Data, forKey key: String) throws(BiometricSecretStoreError) {
        try state.withLock { state throws(BiometricSecretStoreError) in
            switch state.answer {
            case .unavailable: throw .unavailable
            case .lockedOut: throw .lockedOut
            case .succeed, .cancel, .biometryChanged: state.secrets[key] = secret
            }
        }
    }

    public func secret(forKey key: String, reason: String) async throws(BiometricSecretStoreError) -> Data {
        try state.withLock { state throws(BiometricSecretStoreError) in
            if state.answer != .unavailable { state.prompts.append(reason) }
            switch state.answer {
            case .succeed:
                guard let secret = state.secrets[key] else { throw .biometryChanged }
                return secret
            case .cancel: throw .cancelled
            case .biometryChanged:
                state.secrets.removeAll()
                throw .biometryChanged
            case .unavailable: throw .unavailable
            case .lockedOut: throw .lockedOut
            }
        }
    }

    public func removeSecret(forKey key: String) throws(BiometricSecretStoreError) {
        _ = state.withLock { $0.secrets.removeValue(forKey: key) }
    }

    /// Replaces the secret under `key` behind the vault's back.
    public func overwrite(_ key: String, with secret: Data) {
        state.withLock { $0.secrets[key] = secret }
    }
}
