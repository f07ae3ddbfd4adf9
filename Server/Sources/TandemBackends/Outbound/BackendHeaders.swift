/// Header fields in the order they were given or received, names compared without case.
///
/// Printing headers shows their names only, so a header set can be logged or put in an error
/// without its values (tokens, cookies).
///
/// ```swift
/// let headers: BackendHeaders = ["Accept": "application/json", "Authorization": "Bearer " + token]
/// headers["accept"] // "application/json"
/// let pairs = Array(headers.pairs) // [(name: String, value: String)], as the page mapper takes
/// ```
public struct BackendHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as given or received.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name and value pairs in order; a name may repeat.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, compared without case; `nil` when there is none.
    public subscript(name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value for `name`, compared without case, in order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Appends a field, keeping any with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`, compared without case.
    public mutating func remove(name: String) {
        let unwanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == unwanted }
    }

    /// The fields as `(name, value)` pairs, the shape the page mapper reads.
    public var pairs: [(name: String, value: String)] {
        fields.map { (name: $0.name, value: $0.value) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The field names only, never values.
    public var description: String {
        "[" + fields.map(\.name).joined(separator: ", ") + "]"
    }
}
