/// The header fields of an ``HTTPRequest`` or ``HTTPResponse``: names compare case-insensitively
/// (RFC 9110 §5.1), order is kept.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["x-api-key"] = key
/// headers["X-API-Key"]   // the same field
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The name as it was set.
        public var name: String
        /// The value.
        public var value: String
    }

    private var fields: [Field]

    /// Headers with `fields`, in order.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// Headers from a literal such as `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the field `name` (any case), or `nil`; setting replaces every field of that
    /// name, and `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }
        set {
            let key = name.lowercased()
            guard let newValue, let index = fields.firstIndex(where: { $0.name.lowercased() == key }) else {
                fields.removeAll { $0.name.lowercased() == key }
                if let newValue { fields.append(Field(name: name, value: newValue)) }
                return
            }
            fields[index].value = newValue
            var kept = false
            fields.removeAll { field in
                guard field.name.lowercased() == key else { return false }
                defer { kept = true }
                return kept
            }
        }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
