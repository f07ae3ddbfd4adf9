#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one spelling of a query value that links are built with and parsed by, so a link
/// ``WidgetLink`` builds is always one `DeepLinkRouter` (TandemHost) accepts, and nothing else gets through.
package enum DeepLinkQuery {
    /// Bytes left as they are in a value: RFC 3986's unreserved characters and the sub-delimiters
    /// that mean nothing in a query here. Everything else is percent-encoded.
    private static let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:@!$'()*,;".utf8)
    /// Bytes a URL may hold unencoded at all (printable ASCII less RFC 3986's excluded characters).
    package static let urlBytes = Set((0x21...0x7E).map(UInt8.init)).subtracting("\"<>\\^`{|}".utf8)
    /// Characters no value may hold, encoded or not: they separate parts of a URL.
    private static let separators = Set("&=?#/\\".utf8)
    /// Characters that may appear in a value only unencoded (`/`) or not at all.
    private static let forbiddenInValue: Set<Character> = ["%", "&", "=", "?", "#", "\\"]
    /// The characters a widget kind may use.
    package static let kindBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._".utf8)

    /// `value` percent-encoded for a query.
    package static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            if plain.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The decoded value of the raw `value` of parameter `name`, refusing every trick.
    package static func decode(_ raw: String, name: String) throws(DeepLinkError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(raw.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .invalidPercentEncoding(name)
            }
            let decoded = high << 4 | low
            if decoded == UInt8(ascii: "%") { throw .doubleEncoding(name) }
            if separators.contains(decoded) { throw .encodedSeparator(name) }
            bytes.append(decoded)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else { throw .invalidPercentEncoding(name) }
        try validate(text, name: name)
        return text
    }

    /// Checks that `value` can stand as parameter `name`: no control character and none of
    /// `% & = ? # \`.
    package static func validate(_ value: String, name: String) throws(DeepLinkError) {
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .controlCharacter(name)
        }
        if value.contains(where: forbiddenInValue.contains) { throw .invalidParameterValue(name) }
    }

    /// Whether `kind` is a non-empty token of letters, digits, `-`, `.` and `_`, at most 64 long.
    package static func isValidKind(_ kind: String) -> Bool {
        (1...64).contains(kind.utf8.count) && kind.utf8.allSatisfy(kindBytes.contains)
    }

    /// Whether `scheme` is an RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    package static func isValidScheme(_ scheme: String) -> Bool {
        let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        let rest = letters.union("0123456789+-.".utf8)
        guard let first = scheme.utf8.first, letters.contains(first) else { return false }
        return scheme.utf8.allSatisfy(rest.contains)
    }

    /// `scheme://host/path?name=value&…` with each value encoded.
    package static func url(scheme: String, host: String, path: String, parameters: [(String, String)]) throws(DeepLinkError) -> URL {
        var text = "\(scheme)://\(host)\(path)"
        if !parameters.isEmpty {
            text += "?" + parameters.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw .malformedURL }
        return url
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
