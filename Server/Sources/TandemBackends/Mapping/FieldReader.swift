/// Reads the mapped fields of one item of a page, converting each by its declared type and
/// naming the item and pointer when a value does not fit.
struct FieldReader {
    let item: BackendJSON
    let index: Int
    let protocolKind: BackendProtocolKind

    /// The row's id: a non-empty string, or a number's literal text.
    func id(_ field: FieldMapping) throws(BackendMappingError) -> String {
        guard let value = field.pointer.resolve(in: item) else { throw .missingID(index: index) }
        switch value {
        case .null:
            throw .missingID(index: index)
        case .string(let text) where text.isEmpty:
            throw .missingID(index: index)
        case .string, .number:
            guard let text = try self.text(value, field) else { throw .missingID(index: index) }
            return text
        default:
            throw .wrongType(index: index, pointer: field.pointer.description, expected: "string or number")
        }
    }

    /// A text field: strings as they are, numbers as their literal text, booleans as `true` or
    /// `false`, each converted by the declared type (decimals normalized, dates in UTC).
    func text(_ field: FieldMapping?) throws(BackendMappingError) -> String? {
        guard let field, let value = field.pointer.resolve(in: item) else { return nil }
        return try text(value, field)
    }

    /// The amount as exact decimal text.
    func amount(_ field: FieldMapping?) throws(BackendMappingError) -> String? {
        guard let field, let value = field.pointer.resolve(in: item) else { return nil }
        let pointer = field.pointer.description
        let literal: String
        switch value {
        case .null:
            return nil
        case .number(let text) where field.type != .string:
            literal = text
        case .string(let text) where field.type != .number:
            literal = text
        default:
            let expected = field.type == .number ? "number" : field.type == .string ? "string" : "number or decimal string"
            throw .wrongType(index: index, pointer: pointer, expected: expected)
        }
        guard let decimal = DecimalText.normalized(literal) else {
            throw .invalidValue(index: index, pointer: pointer, reason: "not a decimal number")
        }
        return decimal
    }

    /// The date as ISO 8601 in UTC (`YYYY-MM-DD` for a date without a time).
    func date(_ field: FieldMapping?) throws(BackendMappingError) -> String? {
        guard let field, let value = field.pointer.resolve(in: item) else { return nil }
        switch value {
        case .null:
            return nil
        case .string:
            return try text(value, FieldMapping(pointer: field.pointer, type: field.type ?? inferredDateType(value)))
        default:
            throw .wrongType(index: index, pointer: field.pointer.description, expected: "date string")
        }
    }

    /// A string the protocol keeps at `pointer` in every item (an ETag, an address).
    func annotation(at pointer: JSONPointer) throws(BackendMappingError) -> String? {
        switch pointer.resolve(in: item) {
        case nil, .null?:
            return nil
        case .string(let text)?:
            return text
        default:
            throw .wrongType(index: index, pointer: pointer.description, expected: "string")
        }
    }

    private func inferredDateType(_ value: BackendJSON) -> BackendFieldType {
        if case .string(let text) = value, text.utf8.count == 10 { return protocolKind == .rest ? .iso8601 : .edmDate }
        switch protocolKind {
        case .rest: return .iso8601
        case .odataV4: return .edmDateTimeOffset
        case .odataV2: return .edmDateTime
        }
    }

    private func text(_ value: BackendJSON, _ field: FieldMapping) throws(BackendMappingError) -> String? {
        let pointer = field.pointer.description
        func wrongType(_ expected: String) -> BackendMappingError {
            .wrongType(index: index, pointer: pointer, expected: expected)
        }
        func invalid(_ reason: String) -> BackendMappingError {
            .invalidValue(index: index, pointer: pointer, reason: reason)
        }
        if case .null = value { return nil }
        switch field.type {
        case nil:
            switch value {
            case .string(let text): return text
            case .number(let text): return text
            case .bool(let flag): return flag ? "true" : "false"
            default: throw wrongType("string, number or boolean")
            }
        case .edmString?, .string?:
            guard case .string(let text) = value else { throw wrongType("string") }
            return text
        case .number?:
            guard case .number(let text) = value else { throw wrongType("number") }
            return text
        case .edmBoolean?, .boolean?:
            guard case .bool(let flag) = value else { throw wrongType("boolean") }
            return flag ? "true" : "false"
        case .edmInt32?, .edmInt64?:
            let range: ClosedRange<Int64> = field.type == .edmInt32 ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            let literal: String
            switch value {
            case .number(let text), .string(let text): literal = text
            default: throw wrongType("integer")
            }
            guard let integer = DecimalText.integer(literal, in: range) else { throw invalid("not an integer in range") }
            return integer
        case .edmDecimal?, .edmDouble?:
            let literal: String
            switch value {
            case .number(let text), .string(let text): literal = text
            default: throw wrongType("number or decimal string")
            }
            guard let decimal = DecimalText.normalized(literal) else { throw invalid("not a decimal number") }
            return decimal
        case .edmGuid?:
            guard case .string(let text) = value else { throw wrongType("GUID string") }
            guard Self.isGuid(text) else { throw invalid("not a GUID") }
            return text
        case .edmDate?:
            guard case .string(let text) = value else { throw wrongType("date string") }
            guard let date = BackendDate.dateOnly(text) else { throw invalid("not a YYYY-MM-DD date") }
            return date
        case .iso8601?:
            guard case .string(let text) = value else { throw wrongType("date string") }
            if let date = BackendDate.dateOnly(text) { return date }
            return try utc(BackendDate.isoMilliseconds(text, assumingUTC: false), invalid)
        case .edmDateTimeOffset?:
            guard case .string(let text) = value else { throw wrongType("date string") }
            if protocolKind == .odataV2, let milliseconds = BackendDate.v2Milliseconds(text) {
                return try utc(milliseconds, invalid)
            }
            return try utc(BackendDate.isoMilliseconds(text, assumingUTC: false), invalid)
        case .edmDateTime?:
            guard case .string(let text) = value else { throw wrongType("date string") }
            if let milliseconds = BackendDate.v2Milliseconds(text) { return try utc(milliseconds, invalid) }
            return try utc(BackendDate.isoMilliseconds(text, assumingUTC: true), invalid)
        }
    }

    private func utc(
        _ milliseconds: Int64?, _ invalid: (String) -> BackendMappingError
    ) throws(BackendMappingError) -> String {
        guard let milliseconds, let text = BackendDate.iso8601(millisecondsSince1970: milliseconds) else {
            throw invalid("not a date and time of the years 1 to 9999")
        }
        return text
    }

    private static func isGuid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
