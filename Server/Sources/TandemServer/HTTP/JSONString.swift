import Foundation

/// JSON string literals written by hand, for the few responses on the token endpoint's hot path
/// that skip `JSONEncoder` (the token response and the JWT payload).
enum JSONString {
    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        // Tokens, ids and scopes never need escaping: skip the scalar loop for them.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
