import Foundation

/// An `application/x-www-form-urlencoded` body, parsed strictly as RFC 6749 requires:
/// a parameter sent twice, or an undecodable escape, makes the whole request invalid.
struct FormBody: Sendable {
    /// The parameters, by name.
    let fields: [String: String]

    /// Why a form could not be parsed.
    enum ParseError: Error, Equatable {
        /// A `%` escape or the UTF-8 behind it is broken.
        case malformedEncoding
        /// A parameter appears more than once.
        case repeatedParameter(String)
    }

    /// Parses `text`.
    init(parsing text: String) throws(ParseError) {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard !name.isEmpty else { continue }
            guard fields[name] == nil else { throw .repeatedParameter(name) }
            fields[name] = value
        }
        self.fields = fields
    }

    /// The value of `name`, or `nil` when absent or empty (RFC 6749 §3.1: empty means omitted).
    subscript(name: String) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        return value
    }

    /// `+` → space and `%XX` → byte, then UTF-8 validation, on bytes (Foundation's
    /// `removingPercentEncoding` is several times slower and this runs on every token request).
    private static func decode(_ component: Substring) throws(ParseError) -> String {
        let utf8 = component.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(component) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { throw .malformedEncoding }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let upper = hexValue(utf8[high]), let lower = hexValue(utf8[low]) else {
                    throw .malformedEncoding
                }
                bytes.append(upper << 4 | lower)
                index = low
            default:
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .malformedEncoding }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
