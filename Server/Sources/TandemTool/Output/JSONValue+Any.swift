#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// What ``JSONLine`` prints, taken from the untyped dictionaries the commands build, so that
/// `JSONEncoder` (in FoundationEssentials, which the widget binary links instead of all of
/// Foundation) writes it.
extension JSONValue {
    /// `value` as JSON: `Bool` before the numbers, so a flag stays `true`; an `Optional` that is
    /// `nil` (or Foundation's `NSNull`) is `null`; what is not JSON is its description.
    public init(any value: Any?) {
        switch value {
        case nil: self = .null
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Int64: self = .number(Double(value))
        case let value as Int32: self = .number(Double(value))
        case let value as UInt64: self = .number(Double(value))
        case let value as UInt32: self = .number(Double(value))
        case let value as Double: self = value.isFinite ? .number(value) : .null
        case let value as Float: self = value.isFinite ? .number(Double(value)) : .null
        case let value as [String: Any]: self = .object(value.mapValues { JSONValue(any: $0) })
        case let value as [String: Any?]: self = .object(value.mapValues { JSONValue(any: $0) })
        case let value as [Any]: self = .array(value.map { JSONValue(any: $0) })
        case let value as [Any?]: self = .array(value.map { JSONValue(any: $0) })
        case let value?:
            // An `Optional` inside `Any`: `nil` is `null`, a value is that value.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                self = mirror.children.first.map { JSONValue(any: $0.value) } ?? .null
            } else if String(describing: type(of: value)) == "NSNull" {
                // Foundation's null, from a command that links all of Foundation.
                self = .null
            } else {
                self = .string(String(describing: value))
            }
        }
    }

    /// The items of an object's `key` array, when it is one.
    public func count(ofArray key: String) -> Int? {
        guard case .object(let members) = self, case .array(let items)? = members[key] else { return nil }
        return items.count
    }
}
