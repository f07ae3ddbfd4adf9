/// An HTTP request method, such as `GET` or OData's `MERGE`: any token RFC 9110 allows.
public struct BackendHTTPMethod: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The method as sent, such as `GET`.
    public let rawValue: String

    /// Creates a method; `nil` unless `rawValue` is a non-empty token.
    public init?(rawValue: String) {
        guard HTTPToken.isToken(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) {
        rawValue = known
    }

    /// `GET`.
    public static let get = BackendHTTPMethod(known: "GET")
    /// `HEAD`.
    public static let head = BackendHTTPMethod(known: "HEAD")
    /// `POST`.
    public static let post = BackendHTTPMethod(known: "POST")
    /// `PUT`.
    public static let put = BackendHTTPMethod(known: "PUT")
    /// `PATCH`.
    public static let patch = BackendHTTPMethod(known: "PATCH")
    /// `DELETE`.
    public static let delete = BackendHTTPMethod(known: "DELETE")
    /// `OPTIONS`.
    public static let options = BackendHTTPMethod(known: "OPTIONS")

    /// The method as sent.
    public var description: String { rawValue }

    /// Decodes a method from its token.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let method = BackendHTTPMethod(rawValue: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not an HTTP method token.")
        }
        self = method
    }

    /// Encodes the method as its token.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
