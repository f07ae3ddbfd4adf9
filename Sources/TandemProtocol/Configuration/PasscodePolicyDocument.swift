#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON form of a vault passcode policy: plain fields a client in any language can read.
/// The server stores each app's policy in it and serves it in the app's configuration
/// (`passcode_policy`); clients read it from there, from configuration JSON and from links, and
/// the vault enforces it (`PasscodePolicy(document)` in TandemVault).
///
/// Decoding checks every value: an unknown character class or limit action is a `DecodingError`,
/// so a document that decodes always describes a policy.
///
/// ```json
/// {"attempts_before_delay":5,"biometrics_allowed":true,"initial_delay_seconds":30,"lock_seconds":3600,
///  "maximum_attempts":10,"maximum_delay_seconds":3600,"minimum_length":6,"on_limit":"lock",
///  "required_character_classes":["digit"]}
/// ```
public struct PasscodePolicyDocument: Codable, Sendable, Equatable {
    /// The fewest characters a passcode may have.
    public var minimumLength: Int
    /// Character classes of which a passcode must contain one character each; sorted.
    public var requiredCharacterClasses: [PasscodeCharacterClass]
    /// Consecutive wrong passcodes after which ``onLimit`` applies (the retry limit).
    public var maximumAttempts: Int
    /// Consecutive wrong passcodes accepted without a waiting time.
    public var attemptsBeforeDelay: Int
    /// The first waiting time, in seconds; it doubles with each further failure.
    public var initialDelaySeconds: Double
    /// The longest waiting time, in seconds.
    public var maximumDelaySeconds: Double
    /// What happens at the retry limit.
    public var onLimit: PasscodeLimitAction
    /// Whether Face ID or Touch ID may unlock the vault instead of the passcode. Allowed unless
    /// the app's policy says otherwise; a document without the field (an older server) allows it.
    public var biometricsAllowed: Bool

    /// A document; every parameter has the default policy's value unless given.
    public init(
        minimumLength: Int = 6, requiredCharacterClasses: [PasscodeCharacterClass] = [], maximumAttempts: Int = 10,
        attemptsBeforeDelay: Int = 5, initialDelaySeconds: Double = 30, maximumDelaySeconds: Double = 3600,
        onLimit: PasscodeLimitAction = .lock(seconds: 3600), biometricsAllowed: Bool = true
    ) {
        self.minimumLength = minimumLength
        self.requiredCharacterClasses = Set(requiredCharacterClasses).sorted()
        self.maximumAttempts = maximumAttempts
        self.attemptsBeforeDelay = attemptsBeforeDelay
        self.initialDelaySeconds = initialDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
        self.onLimit = onLimit
        self.biometricsAllowed = biometricsAllowed
    }

    /// Six characters or more; delays from the sixth failure; locked for an hour at ten. The
    /// server serves it for an app that set no policy, and the vault uses it when given none.
    public static let `default` = PasscodePolicyDocument()

    /// Decodes every field; `on_limit` is `lock` (with `lock_seconds`) or `wipe`;
    /// `biometrics_allowed` may be absent (then `true`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let onLimit: PasscodeLimitAction
        switch (try container.decode(String.self, forKey: .onLimit), try container.decodeIfPresent(Double.self, forKey: .lockSeconds)) {
        case ("lock", let seconds?): onLimit = .lock(seconds: seconds)
        case ("wipe", _): onLimit = .wipe
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .onLimit, in: container, debugDescription: "passcode_policy.on_limit must be wipe, or lock with lock_seconds")
        }
        self.init(
            minimumLength: try container.decode(Int.self, forKey: .minimumLength),
            requiredCharacterClasses: try container.decode([PasscodeCharacterClass].self, forKey: .requiredCharacterClasses),
            maximumAttempts: try container.decode(Int.self, forKey: .maximumAttempts),
            attemptsBeforeDelay: try container.decode(Int.self, forKey: .attemptsBeforeDelay),
            initialDelaySeconds: try container.decode(Double.self, forKey: .initialDelaySeconds),
            maximumDelaySeconds: try container.decode(Double.self, forKey: .maximumDelaySeconds),
            onLimit: onLimit,
            biometricsAllowed: try container.decodeIfPresent(Bool.self, forKey: .biometricsAllowed) ?? true)
    }

    /// Encodes every field, `lock_seconds` as `null` when the limit wipes, so the shape is fixed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minimumLength, forKey: .minimumLength)
        try container.encode(requiredCharacterClasses, forKey: .requiredCharacterClasses)
        try container.encode(maximumAttempts, forKey: .maximumAttempts)
        try container.encode(attemptsBeforeDelay, forKey: .attemptsBeforeDelay)
        try container.encode(initialDelaySeconds, forKey: .initialDelaySeconds)
        try container.encode(maximumDelaySeconds, forKey: .maximumDelaySeconds)
        switch onLimit {
        case .lock(let seconds):
            try container.encode("lock", forKey: .onLimit)
            try container.encode(seconds, forKey: .lockSeconds)
        case .wipe:
            try container.encode("wipe", forKey: .onLimit)
            try container.encodeNil(forKey: .lockSeconds)
        }
        try container.encode(biometricsAllowed, forKey: .biometricsAllowed)
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
        case biometricsAllowed = "biometrics_allowed"
    }
}
