/// Everything that can go wrong turning a backend response page into rows, or checking the
/// mapping that says how. Messages name positions, pointers and limits, never the values of a
/// customer's business data.
public enum BackendMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response body is larger than the mapper reads.
    case bodyTooLarge(bytes: Int, limit: Int)
    /// The body is not JSON (RFC 8259): `offset` is the byte where reading stopped.
    case invalidJSON(offset: Int, reason: String)
    /// Arrays and objects are nested deeper than `limit`.
    case nestingTooDeep(offset: Int, limit: Int)
    /// A JSON pointer's text is not an RFC 6901 pointer.
    case invalidPointer(String, reason: String)
    /// The mapping breaks one of its rules; the message says which.
    case invalidMapping(String)
    /// The row limit is not a positive number.
    case invalidLimit(Int)
    /// Nothing is found where the items array should be.
    case itemsNotFound(pointer: String)
    /// Something other than an array is where the items should be.
    case itemsNotAnArray(pointer: String)
    /// The item at `index` is not a JSON object or array, so no field can be read from it.
    case itemNotAnObject(index: Int)
    /// The item at `index` has no id, or a null or empty one.
    case missingID(index: Int)
    /// The field at `pointer` of the item at `index` has a JSON type the mapping cannot use.
    case wrongType(index: Int, pointer: String, expected: String)
    /// The field at `pointer` of the item at `index` has the right JSON type but an unusable value
    /// (a date that is not a date, a decimal that is not a number).
    case invalidValue(index: Int, pointer: String, reason: String)
    /// A paging field of the page (next link, cursor) has a JSON type the mapper cannot use.
    case invalidPageField(pointer: String, expected: String)

    /// A one-line message for logs and the cockpit.
    public var description: String {
        switch self {
        case .bodyTooLarge(let bytes, let limit):
            "the backend page has \(bytes) bytes, more than the \(limit) read"
        case .invalidJSON(let offset, let reason):
            "the backend page is not JSON: \(reason) at byte \(offset)"
        case .nestingTooDeep(let offset, let limit):
            "the backend page nests arrays and objects deeper than \(limit) levels at byte \(offset)"
        case .invalidPointer(let text, let reason):
            "\"\(text)\" is not a JSON pointer: \(reason)"
        case .invalidMapping(let message):
            "invalid entity set mapping: \(message)"
        case .invalidLimit(let limit):
            "the row limit must be at least 1, not \(limit)"
        case .itemsNotFound(let pointer):
            "the backend page has nothing at \"\(pointer)\", where its items should be"
        case .itemsNotAnArray(let pointer):
            "the backend page has no array at \"\(pointer)\", where its items should be"
        case .itemNotAnObject(let index):
            "item \(index) of the backend page is not an object"
        case .missingID(let index):
            "item \(index) of the backend page has no id"
        case .wrongType(let index, let pointer, let expected):
            "item \(index) of the backend page has no \(expected) at \"\(pointer)\""
        case .invalidValue(let index, let pointer, let reason):
            "item \(index) of the backend page has an unusable value at \"\(pointer)\": \(reason)"
        case .invalidPageField(let pointer, let expected):
            "the backend page has no \(expected) at \"\(pointer)\""
        }
    }
}
