#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON form of an app's action policy: which item actions need the user present. The
/// server stores each app's policy and serves it in the app's configuration (`action_policy`);
/// the server refuses an action above the threshold without a ``StepUpProof``, and the host
/// asks for the passcode or Face ID before it signs one.
///
/// The threshold is a decimal written as a string, so no binary rounding moves it:
///
/// ```json
/// {"amount_field":"Amount","step_up_above":"1000.00"}
/// ```
///
/// ```swift
/// let policy = configuration.actionPolicy
/// if policy.requiresStepUp(amount: policy.amount(inRow: row)) { /* open the app, step up */ }
/// ```
public struct ActionPolicyDocument: Codable, Hashable, Sendable {
    /// Actions on items whose amount is above this need a step-up proof.
    public var stepUpAbove: Decimal
    /// The row field holding an item's amount.
    public var amountField: String

    /// A policy; ``default`` unless told otherwise.
    public init(stepUpAbove: Decimal = 1000, amountField: String = "Amount") {
        self.stepUpAbove = stepUpAbove
        self.amountField = amountField
    }

    /// Step-up above 1000 in the `Amount` field: the policy of an app that set none.
    public static let `default` = ActionPolicyDocument()

    /// Whether an action on an item of `amount` needs a step-up proof: above the threshold, or
    /// an amount that is missing or unreadable (when in doubt, ask the user).
    public func requiresStepUp(amount: Decimal?) -> Bool {
        guard let amount else { return true }
        return amount > stepUpAbove
    }

    /// The amount of `row`: its ``amountField`` as a decimal string (`"1250.00"`) or a JSON
    /// number; `nil` when missing or anything else.
    public func amount(inRow row: [String: JSONValue]) -> Decimal? {
        switch row[amountField] {
        case .string(let text)?: Self.decimal(text)
        case .number(let number)? where number.isFinite: Self.decimal(String(number))
        default: nil
        }
    }

    // MARK: - Coding

    /// Decodes `step_up_above` (a decimal string, or a number) and `amount_field` (absent:
    /// `Amount`).
    ///
    /// - Throws: A `DecodingError` for a threshold that is no non-negative decimal, or an empty
    ///   amount field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let threshold: Decimal?
        if let text = try? container.decode(String.self, forKey: .stepUpAbove) {
            threshold = Self.decimal(text)
        } else {
            threshold = Self.decimal(String(try container.decode(Double.self, forKey: .stepUpAbove)))
        }
        guard let threshold, threshold >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .stepUpAbove, in: container, debugDescription: "step_up_above must be a non-negative decimal such as \"1000.00\"")
        }
        let field = try container.decodeIfPresent(String.self, forKey: .amountField) ?? "Amount"
        guard !field.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .amountField, in: container, debugDescription: "amount_field must not be empty")
        }
        self.init(stepUpAbove: threshold, amountField: field)
    }

    /// Encodes the threshold as a decimal string with at least two fraction digits (`"1000.00"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.text(of: stepUpAbove), forKey: .stepUpAbove)
        try container.encode(amountField, forKey: .amountField)
    }

    enum CodingKeys: String, CodingKey {
        case stepUpAbove = "step_up_above"
        case amountField = "amount_field"
    }

    /// `text` as a decimal when it is one plainly: an optional `-`, digits, optionally `.` and
    /// digits (no exponent, no spaces, no trailing junk, which `Decimal(string:)` would skip).
    public static func decimal(_ text: String) -> Decimal? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }),
            text.utf8.count <= 40
        else { return nil }
        return Decimal(string: text)
    }

    /// `value` with at least two fraction digits: `1000` → `"1000.00"`, `0.125` → `"0.125"`.
    public static func text(of value: Decimal) -> String {
        let plain = value.description
        guard let dot = plain.firstIndex(of: ".") else { return plain + ".00" }
        let fraction = plain.distance(from: dot, to: plain.endIndex) - 1
        return fraction >= 2 ? plain : plain + String(repeating: "0", count: 2 - fraction)
    }
}
