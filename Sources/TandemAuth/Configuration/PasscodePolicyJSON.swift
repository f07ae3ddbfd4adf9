import Foundation
import TandemVault

/// A vault ``PasscodePolicy`` in the server's JSON form (`passcode_policy` in
/// `GET /v1/apps/{clientId}/configuration`), also used in configuration JSON and links.
struct PasscodePolicyJSON: Codable {
    var minimumLength: Int
    var requiredCharacterClasses: [String]
    var maximumAttempts: Int
    var attemptsBeforeDelay: Int
    var initialDelaySeconds: Double
    var maximumDelaySeconds: Double
    var onLimit: String
    var lockSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case minimumLength = "minimum_length"
        case requiredCharacterClasses = "required_character_classes"
        case maximumAttempts = "maximum_attempts"
        case attemptsBeforeDelay = "attempts_before_delay"
        case initialDelaySeconds = "initial_delay_seconds"
        case maximumDelaySeconds = "maximum_delay_seconds"
        case onLimit = "on_limit"
        case lockSeconds = "lock_seconds"
    }

    init(_ policy: PasscodePolicy) {
        minimumLength = policy.minimumLength
        requiredCharacterClasses = policy.requiredCharacterClasses.sorted().map(\.rawValue)
        maximumAttempts = policy.maximumAttempts
        attemptsBeforeDelay = policy.attemptsBeforeDelay
        initialDelaySeconds = policy.initialDelay
        maximumDelaySeconds = policy.maximumDelay
        switch policy.onLimit {
        case .lock(let seconds):
            onLimit = "lock"
            lockSeconds = seconds
        case .wipe:
            onLimit = "wipe"
            lockSeconds = nil
        }
    }

    /// The vault policy, or an error naming what is unknown.
    func policy() throws(AuthError) -> PasscodePolicy {
        var classes = Set<PasscodePolicy.CharacterClass>()
        for name in requiredCharacterClasses {
            guard let characterClass = PasscodePolicy.CharacterClass(rawValue: name) else {
                throw .invalidConfiguration("passcode_policy names an unknown character class \(name)")
            }
            classes.insert(characterClass)
        }
        let action: PasscodePolicy.LimitAction
        switch (onLimit, lockSeconds) {
        case ("wipe", _): action = .wipe
        case ("lock", .some(let seconds)): action = .lock(seconds: seconds)
        default: throw .invalidConfiguration("passcode_policy.on_limit must be wipe, or lock with lock_seconds")
        }
        return PasscodePolicy(
            minimumLength: minimumLength, requiredCharacterClasses: classes, maximumAttempts: maximumAttempts,
            attemptsBeforeDelay: attemptsBeforeDelay, initialDelay: initialDelaySeconds, maximumDelay: maximumDelaySeconds,
            onLimit: action)
    }
}
