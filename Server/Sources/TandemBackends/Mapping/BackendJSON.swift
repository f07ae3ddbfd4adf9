/// A JSON document exactly as a backend sent it: numbers keep their literal text (`4805.10`,
/// `1E+2`, an Int64 id beyond 2^53) and objects keep their members in the order received.
///
/// ```swift
/// let json = try BackendJSON.parse(Array(#"{"amount":4805.10}"#.utf8))
/// json["amount"] // .number(text: "4805.10")
/// ```
public enum BackendJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the literal text of the document (RFC 8259 grammar, never converted).
    case number(text: String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array.
    case array([BackendJSON])
    /// An object, its members in document order. Names are unique: the parser refuses duplicates.
    case object([BackendJSONMember])

    /// How deep arrays and objects may nest unless the caller says otherwise.
    public static let defaultMaximumDepth = 64

    /// Parses `bytes` as one strict RFC 8259 JSON text in UTF-8: no trailing characters, no
    /// comments, no lone surrogates, no invalid UTF-8, no duplicate member names. A leading UTF-8
    /// byte order mark is skipped (RFC 8259 §8.1 allows it). The caller limits the input's size.
    ///
    /// ```swift
    /// let document = try BackendJSON.parse(body)
    /// ```
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth
    ) throws(BackendMappingError) -> BackendJSON {
        let contiguous = Array(bytes)
        let result = contiguous.withUnsafeBufferPointer { buffer in
            var parser = BackendJSONParser(bytes: buffer, maximumDepth: maximumDepth)
            return Result { () throws(BackendMappingError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// The value of the member named `key` when this is an object that has one.
    public subscript(key: String) -> BackendJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` when this is an array that long.
    public subscript(index: Int) -> BackendJSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The JSON type's name, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
