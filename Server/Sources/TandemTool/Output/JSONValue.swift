#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value: what ``JSONLine`` prints, taken from the untyped dictionaries the commands
/// build, so that `JSONEncoder` (in FoundationEssentials, which the widget binary links instead
/// of all of Foundation) writes it; and a payload decoded to be printed again.
public enum JSONValue: Codable, Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// `value` as JSON: `Bool` before the numbers, so a flag stays `true`; an `Optional` that is
    /// `nil` is `null`; what is not JSON is its description.
    public init(_ value: Any?) {
        switch value {
        case nil: self = .null
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as UInt64: self = value <= UInt64(Int64.max) ? .integer(Int64(value)) : .number(Double(value))
        case let value as UInt32: self = .integer(Int64(value))
        case let value as Double: self = value.isFinite ? .number(value) : .null
        case let value as Float: self = value.isFinite ? .number(Double(value)) : .null
        case let value as [String: Any]: self = .object(value.mapValues { JSONValue($0) })
        case let value as [String: Any?]: self = .object(value.mapValues { JSONValue($0) })
        case let value as [Any]: self = .array(value.map { JSONValue($0) })
        case let value as [Any?]: self = .array(value.map { JSONValue($0) })
        case let value?:
            // An `Optional` inside `Any`: `nil` is `null`, a value is that value.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                self = mirror.children.first.map { JSONValue($0.value) } ?? .null
            } else if String(describing: type(of: value)) == "NSNull" {
                // Foundation's null, from a command that links all of Foundation.
                self = .null
            } else {
                self = .string(String(describing: value))
            }
        }
    }

    /// Decodes any JSON document.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The items of an object's `key` array, when it is one.
    public func count(ofArray key: String) -> Int? {
        guard case .object(let members) = self, case .array(let items)? = members[key] else { return nil }
        return items.count
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let values): try container.encode(values)
        }
    }
}
