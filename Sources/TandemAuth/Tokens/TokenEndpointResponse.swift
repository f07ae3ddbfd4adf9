import Foundation

/// The JSON a token endpoint answers with (RFC 6749 §5.1, RFC 8693 §2.2.1).
struct TokenEndpointResponse: Decodable {
    var accessToken: String
    var tokenType: String
    var expiresIn: Int
    var refreshToken: String?
    var scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }

    /// The tokens in `response`, expiring `expires_in` seconds after `now`. A refresh answer
    /// without a refresh token keeps `previousRefreshToken` (RFC 6749 §6 allows the server to
    /// leave it unchanged).
    static func tokens(from response: HTTPResponse, now: Date, previousRefreshToken: String? = nil) throws(AuthError) -> TokenSet {
        guard response.isSuccess else { throw AuthError(response: response) }
        let decoded: TokenEndpointResponse
        do {
            decoded = try JSONDecoder().decode(TokenEndpointResponse.self, from: response.body)
        } catch {
            throw .malformedResponse("the token response is not the expected JSON")
        }
        guard decoded.tokenType.caseInsensitiveCompare("Bearer") == .orderedSame else {
            throw .malformedResponse("token_type \(decoded.tokenType) is not Bearer")
        }
        guard !decoded.accessToken.isEmpty, decoded.expiresIn > 0 else {
            throw .malformedResponse("the token response has an empty access token or no lifetime")
        }
        return TokenSet(
            accessToken: decoded.accessToken, refreshToken: decoded.refreshToken ?? previousRefreshToken,
            expiresAt: now.addingTimeInterval(TimeInterval(decoded.expiresIn)), scope: decoded.scope,
            tokenType: "Bearer")
    }
}
