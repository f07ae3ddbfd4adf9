/// The JSON body of an error answer, `{"error": …, "error_description": …}` (RFC 6749 §5.2;
/// the `/v1` endpoints answer with the same shape and RFC 6750 codes).
///
/// ```swift
/// let body = try JSONDecoder().decode(OAuthErrorResponse.self, from: data)
/// if body.code == .invalidGrant { signOut() }
/// ```
public struct OAuthErrorResponse: Codable, Sendable, Equatable {
    /// The error code, as sent; it may be one that ``OAuthErrorCode`` does not list.
    public var error: String
    /// What was wrong, for a developer; never a secret.
    public var errorDescription: String?

    /// Creates a body from any code, such as an RFC 6750 one (`invalid_token`).
    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// Creates a body from a token endpoint error code.
    public init(_ code: OAuthErrorCode, description: String? = nil) {
        self.init(error: code.rawValue, errorDescription: description)
    }

    /// ``error`` as a token endpoint error code, or `nil` when it is another code.
    public var code: OAuthErrorCode? { OAuthErrorCode(rawValue: error) }

    /// The JSON field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        /// `error`
        case error
        /// `error_description`
        case errorDescription = "error_description"
    }
}
