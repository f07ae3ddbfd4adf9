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

    private static func decode(_ component: Substring) throws(ParseError) -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else { throw .malformedEncoding }
        return decoded
    }
}
