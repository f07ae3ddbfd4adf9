#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kind of character a passcode can be required to contain; its raw value is the name in a
/// ``PasscodePolicyDocument``.
public enum PasscodeCharacterClass: String, Codable, Sendable, CaseIterable, Comparable {
    /// `0`–`9` and other decimal digits.
    case digit
    /// Any letter, upper or lower case.
    case letter
    /// An uppercase letter.
    case uppercase
    /// A lowercase letter.
    case lowercase
    /// Anything that is neither a letter nor a digit.
    case symbol

    /// In declaration order: the order documents list them in.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}
