import Foundation
/// A successful token response (RFC 6749 §5.1).
struct TokenResponse: Encodable, Sendable {
    /// The signed JWT.
    let accessToken: String
    /// Always `Bearer`.
    let tokenType = "Bearer"
    /// The access token's lifetime in seconds.
    let expiresIn: Int64
    /// The successor refresh token.
    let refreshToken: String
    /// The granted scope.
    let scope: String
    /// For a token exchange, the type of `access_token` (RFC 8693 §2.2.1); absent otherwise.
    var issuedTokenType: String? = nil

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case issuedTokenType = "issued_token_type"
    }

    /// The JSON text, written directly: this is on every token request, and `JSONEncoder` costs
    /// more than the rest of the response. Keys are sorted, as `JSONResponse` sorts them.
    var json: String {
        var text = "{\"access_token\":" + JSONString.quoted(accessToken) + ",\"expires_in\":" + String(expiresIn)
        if let issuedTokenType { text += ",\"issued_token_type\":" + JSONString.quoted(issuedTokenType) }
        text += ",\"refresh_token\":" + JSONString.quoted(refreshToken) + ",\"scope\":" + JSONString.quoted(scope)
        text += ",\"token_type\":" + JSONString.quoted(tokenType) + "}"
        return text
    }
}
