import Foundation

/// What a test received for one HTTP request: status, headers and body, whichever client sent it.
public struct HTTPTestResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields; a repeated field's values are joined with ", ".
    public let headers: [String: String]
    /// The body.
    public let body: Data

    /// Creates a response from its parts.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as a JSON object of strings (numbers as their text; empty when it is not one).
    public var json: [String: String] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [:] }
        return object.compactMapValues { value in
            if let string = value as? String { return string }
            if let number = value as? NSNumber { return number.stringValue }
            return nil
        }
    }

    /// The body as a JSON object of any values (empty when it is not one).
    public var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
    }

    /// A header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
