import Foundation
import TandemProtocol

/// What a passcode must look like and what happens when wrong ones are entered.
///
/// Failed attempts are counted in the host's `SecretStorage` (the keychain on Apple
/// platforms), not in the vault file, so putting an earlier copy of the file back does not
/// reset them. The policy itself is stored there too, so editing the vault file cannot relax it.
///
/// With the default policy the first five wrong passcodes only count down; from then on each
/// failure doubles a waiting time that starts at 30 seconds, and the tenth failure locks the
/// vault for an hour.
///
/// ```swift
/// let policy = PasscodePolicy(minimumLength: 8,
///                             requiredCharacterClasses: [.digit, .letter],
///                             maximumAttempts: 6,
///                             onLimit: .wipe)
/// try vault.create(passcode: "s3cret-passcode", policy: policy)
/// ```
public struct PasscodePolicy: Codable, Sendable, Equatable {
    /// A kind of character a passcode can be required to contain.
    public typealias CharacterClass = PasscodeCharacterClass

    /// What happens when ``maximumAttempts`` consecutive wrong passcodes have been entered.
    public typealias LimitAction = PasscodeLimitAction

    /// One way a passcode falls short of the policy.
    public enum Violation: Sendable, Equatable, CustomStringConvertible {
        /// The passcode has fewer than `minimum` characters.
        case tooShort(minimum: Int)
        /// The passcode has no character of this class.
        case missingCharacterClass(CharacterClass)

        public var description: String {
            switch self {
            case .tooShort(let minimum): "at least \(minimum) characters"
            case .missingCharacterClass(let characterClass): "at least one \(characterClass.rawValue)"
            }
        }
    }

    /// The fewest characters a passcode may have.
    public var minimumLength: Int
    /// Classes of which the passcode must contain at least one character each.
    public var requiredCharacterClasses: Set<CharacterClass>
    /// Consecutive wrong passcodes after which ``onLimit`` applies.
    public var maximumAttempts: Int
    /// Consecutive wrong passcodes accepted without any waiting time.
    public var attemptsBeforeDelay: Int
    /// The wait after the first failure beyond ``attemptsBeforeDelay``; it doubles with each
    /// further failure, up to ``maximumDelay``.
    public var initialDelay: TimeInterval
    /// The longest wait between two attempts.
    public var maximumDelay: TimeInterval
    /// What happens at ``maximumAttempts``.
    public var onLimit: LimitAction
    /// Whether Face ID or Touch ID may open the vault instead of the passcode
    /// (``Vault/enableBiometricUnlock()``).
    public var biometricsAllowed: Bool

    /// Creates a policy; every parameter has the default's value (`PasscodePolicyDocument/default`) unless given.
    public init(
        minimumLength: Int = PasscodePolicyDocument.default.minimumLength,
        requiredCharacterClasses: Set<CharacterClass> = Set(PasscodePolicyDocument.default.requiredCharacterClasses),
        maximumAttempts: Int = PasscodePolicyDocument.default.maximumAttempts,
        attemptsBeforeDelay: Int = PasscodePolicyDocument.default.attemptsBeforeDelay,
        initialDelay: TimeInterval = PasscodePolicyDocument.default.initialDelaySeconds,
        maximumDelay: TimeInterval = PasscodePolicyDocument.default.maximumDelaySeconds,
        onLimit: LimitAction = PasscodePolicyDocument.default.onLimit,
        biometricsAllowed: Bool = PasscodePolicyDocument.default.biometricsAllowed
    ) {
        self.minimumLength = minimumLength
        self.requiredCharacterClasses = requiredCharacterClasses
        self.maximumAttempts = min(max(1, maximumAttempts), 1_000_000)
        self.attemptsBeforeDelay = max(0, attemptsBeforeDelay)
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.onLimit = onLimit
        self.biometricsAllowed = biometricsAllowed
    }

    /// Decodes a stored policy through `init(minimumLength:requiredCharacterClasses:maximumAttempts:attemptsBeforeDelay:initialDelay:maximumDelay:onLimit:biometricsAllowed:)`,
    /// so that its limits hold for stored values too. A policy stored before biometric unlock
    /// existed allows it, as the default does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            minimumLength: try container.decode(Int.self, forKey: .minimumLength),
            requiredCharacterClasses: try container.decode(Set<CharacterClass>.self, forKey: .requiredCharacterClasses),
            maximumAttempts: try container.decode(Int.self, forKey: .maximumAttempts),
            attemptsBeforeDelay: try container.decode(Int.self, forKey: .attemptsBeforeDelay),
            initialDelay: try container.decode(TimeInterval.self, forKey: .initialDelay),
            maximumDelay: try container.decode(TimeInterval.self, forKey: .maximumDelay),
            onLimit: try container.decode(LimitAction.self, forKey: .onLimit),
            biometricsAllowed: try container.decodeIfPresent(Bool.self, forKey: .biometricsAllowed) ?? true)
    }

    /// How long the `lockouts`-th consecutive lockout lasts: twice the one before.
    func lockDuration(_ seconds: TimeInterval, lockouts: Int) -> TimeInterval {
        seconds * pow(2, Double(min(max(lockouts - 1, 0), 10)))
    }

    /// Six characters or more; delays from the sixth failure; locked for an hour at ten
    /// (`PasscodePolicyDocument/default`).
    public static let `default` = PasscodePolicy()

    /// The policy a document describes (its limits clamped as `init(minimumLength:requiredCharacterClasses:maximumAttempts:attemptsBeforeDelay:initialDelay:maximumDelay:onLimit:biometricsAllowed:)` clamps them).
    public init(_ document: PasscodePolicyDocument) {
        self.init(
            minimumLength: document.minimumLength, requiredCharacterClasses: Set(document.requiredCharacterClasses),
            maximumAttempts: document.maximumAttempts, attemptsBeforeDelay: document.attemptsBeforeDelay,
            initialDelay: document.initialDelaySeconds, maximumDelay: document.maximumDelaySeconds, onLimit: document.onLimit,
            biometricsAllowed: document.biometricsAllowed)
    }

    /// The ways `passcode` falls short of this policy; empty when it is acceptable.
    public func violations(for passcode: String) -> [Violation] {
        var violations: [Violation] = []
        if passcode.count < minimumLength { violations.append(.tooShort(minimum: minimumLength)) }
        for characterClass in requiredCharacterClasses.sorted()
        where !passcode.contains(where: characterClass.matches) {
            violations.append(.missingCharacterClass(characterClass))
        }
        return violations
    }

    /// The wait required after `failures` consecutive failures (zero while under
    /// ``attemptsBeforeDelay``).
    func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures >= attemptsBeforeDelay, failures > 0 else { return 0 }
        let doublings = min(failures - attemptsBeforeDelay, 40)
        return min(initialDelay * pow(2, Double(doublings)), maximumDelay)
    }
}

extension PasscodePolicyDocument {
    /// The document of `policy`.
    public init(_ policy: PasscodePolicy) {
        self.init(
            minimumLength: policy.minimumLength, requiredCharacterClasses: Array(policy.requiredCharacterClasses),
            maximumAttempts: policy.maximumAttempts, attemptsBeforeDelay: policy.attemptsBeforeDelay,
            initialDelaySeconds: policy.initialDelay, maximumDelaySeconds: policy.maximumDelay, onLimit: policy.onLimit,
            biometricsAllowed: policy.biometricsAllowed)
    }
}

extension PasscodeCharacterClass {
    func matches(_ character: Character) -> Bool {
        switch self {
        case .digit: character.isNumber
        case .letter: character.isLetter
        case .uppercase: character.isUppercase
        case .lowercase: character.isLowercase
        case .symbol: !character.isLetter && !character.isNumber
        }
    }
}
