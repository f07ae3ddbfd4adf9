import Foundation

/// The JSON form of a vault ``PasscodePolicy``: plain fields a client in any language can read.
/// The server stores each app's policy in it and serves it in the app's configuration
/// (`passcode_policy`); clients read it from there, from configuration JSON and from links.
///
/// ```json
/// {"attempts_before_delay":5,"initial_delay_seconds":30,"lock_seconds":3600,"maximum_attempts":10,
///  "maximum_delay_seconds":3600,"minimum_length":6,"on_limit":"lock","required_character_classes":["digit"]}
/// ```
public struct PasscodePolicyDocument: Codable, Sendable, Equatable {
    /// The fewest characters a passcode may have.
    public var minimumLength: Int
    /// Character classes (`digit`, `letter`, `uppercase`, `lowercase`, `symbol`) of which a
    /// passcode must contain one character each; sorted.
    public var requiredCharacterClasses: [String]
    /// Consecutive wrong passcodes after which ``onLimit`` applies (the retry limit).
    public var maximumAttempts: Int
    /// Consecutive wrong passcodes accepted without a waiting time.
    public var attemptsBeforeDelay: Int
    /// The first waiting time, in seconds; it doubles with each further failure.
    public var initialDelaySeconds: Double
    /// The longest waiting time, in seconds.
    public var maximumDelaySeconds: Double
    /// `lock` or `wipe`: what happens at the retry limit.
    public var onLimit: String
    /// How long the vault locks at the limit, in seconds; `null` when ``onLimit`` is `wipe`.
    public var lockSeconds: Double?

    /// The document of `policy`.
    public init(_ policy: PasscodePolicy) {
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

    /// The vault policy this document describes.
    ///
    /// - Throws: ``VaultError/coding(_:)`` for an unknown character class or limit action.
    public var policy: PasscodePolicy {
        get throws(VaultError) {
            var classes = Set<PasscodePolicy.CharacterClass>()
            for name in requiredCharacterClasses {
                guard let characterClass = PasscodePolicy.CharacterClass(rawValue: name) else {
                    throw .coding("passcode_policy names an unknown character class \(name)")
                }
                classes.insert(characterClass)
            }
            let action: PasscodePolicy.LimitAction
            switch (onLimit, lockSeconds) {
            case ("lock", let seconds?): action = .lock(seconds: seconds)
            case ("wipe", _): action = .wipe
            default: throw .coding("passcode_policy.on_limit must be wipe, or lock with lock_seconds")
            }
            return PasscodePolicy(
                minimumLength: minimumLength, requiredCharacterClasses: classes, maximumAttempts: maximumAttempts,
                attemptsBeforeDelay: attemptsBeforeDelay, initialDelay: initialDelaySeconds,
                maximumDelay: maximumDelaySeconds, onLimit: action)
        }
    }

    /// Encodes every field, `lock_seconds` as `null` when absent, so the document's shape is fixed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minimumLength, forKey: .minimumLength)
        try container.encode(requiredCharacterClasses, forKey: .requiredCharacterClasses)
        try container.encode(maximumAttempts, forKey: .maximumAttempts)
        try container.encode(attemptsBeforeDelay, forKey: .attemptsBeforeDelay)
        try container.encode(initialDelaySeconds, forKey: .initialDelaySeconds)
        try container.encode(maximumDelaySeconds, forKey: .maximumDelaySeconds)
        try container.encode(onLimit, forKey: .onLimit)
        try container.encode(lockSeconds, forKey: .lockSeconds)
    }

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
}
