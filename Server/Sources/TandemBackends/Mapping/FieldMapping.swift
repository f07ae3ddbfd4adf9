/// Where one field of a widget row is in a backend item, and what type the backend declares for it.
///
/// ```swift
/// let amount = try FieldMapping("/GrossAmount", type: .edmDecimal)
/// ```
public struct FieldMapping: Sendable, Hashable, Codable {
    /// The field's place, relative to the item (`"/customer/name"` reaches into a nested object).
    public var pointer: JSONPointer
    /// The type the backend declares; nil reads strings, numbers and booleans as they come.
    public var type: BackendFieldType?

    /// The field at `pointer`, of type `type`.
    public init(pointer: JSONPointer, type: BackendFieldType? = nil) {
        self.pointer = pointer
        self.type = type
    }

    /// The field at the RFC 6901 pointer `pointer`, of type `type`.
    public init(_ pointer: String, type: BackendFieldType? = nil) throws(BackendMappingError) {
        self.init(pointer: try JSONPointer(pointer), type: type)
    }
}
