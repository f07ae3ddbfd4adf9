/// An RFC 6901 JSON pointer: `""` is the whole document, `"/customer/name"` a member of a member,
/// `"/lines/0"` the first element of an array; `~1` stands for `/` and `~0` for `~` in names.
/// A pointer can only be made from valid text, so a mapping never holds a malformed one.
///
/// ```swift
/// let pointer = try JSONPointer("/customer/name")
/// pointer.resolve(in: item) // .string("Alfreds Futterkiste")
/// ```
public struct JSONPointer: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The reference tokens, unescaped: `["a/b", "0"]` for `"/a~1b/0"`.
    public let tokens: [String]

    /// The pointer to the whole document, `""`.
    public static let document = JSONPointer(tokens: [])

    /// The pointer whose tokens are `tokens` (already unescaped).
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses RFC 6901 text; refuses text that does not start with `/` (other than `""`) and a `~`
    /// not followed by `0` or `1`.
    public init(_ text: String) throws(BackendMappingError) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw .invalidPointer(text, reason: "a pointer is empty or starts with \"/\"")
        }
        var tokens: [String] = []
        for raw in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var token: [UInt8] = []
            token.reserveCapacity(raw.count)
            var iterator = raw.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "~") else {
                    token.append(byte)
                    continue
                }
                switch iterator.next() {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: throw .invalidPointer(text, reason: "\"~\" is followed by \"0\" or \"1\"")
                }
            }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        self.tokens = tokens
    }

    /// Whether this is the pointer to the whole document.
    public var isDocument: Bool { tokens.isEmpty }

    /// The pointer's RFC 6901 text, escaped.
    public var description: String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// This pointer followed by `token`.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// The value this pointer names in `document`, or nil when there is none (a missing member, an
    /// index past the end, `-`, or an index with leading zeros).
    public func resolve(in document: BackendJSON) -> BackendJSON? {
        var current = document
        for token in tokens {
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, utf8.count <= 18,
            utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            first != UInt8(ascii: "0") || utf8.count == 1
        else { return nil }
        return Int(token)
    }

    /// Decodes the pointer from its RFC 6901 text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the pointer as its RFC 6901 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
