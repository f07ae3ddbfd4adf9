#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

extension TokenSet {
    /// The tokens of a token endpoint's `response` (a `TokenResponse` body), expiring
    /// `expires_in` seconds after `now`. A refresh answer without a refresh token keeps
    /// `previousRefreshToken` (RFC 6749 §6 allows the server to leave it unchanged).
    ///
    /// - Throws: The ``AuthError`` of an error answer (``AuthError/init(response:)``), or
    ///   ``AuthError/malformedResponse(_:)`` when a 2xx body is not a usable bearer token.
    init(tokenEndpointAnswer response: HTTPResponse, now: Date, previousRefreshToken: String? = nil) throws(AuthError) {
        guard response.isSuccess else { throw AuthError(response: response) }
        let decoded: TokenResponse
        do {
            decoded = try JSONDecoder().decode(TokenResponse.self, from: response.body)
        } catch {
            throw .malformedResponse("the token response is not the expected JSON")
        }
        guard decoded.tokenType.lowercased() == "bearer" else {
            throw .malformedResponse("token_type \(decoded.tokenType) is not Bearer")
        }
        guard !decoded.accessToken.isEmpty, decoded.expiresIn > 0 else {
            throw .malformedResponse("the token response has an empty access token or no lifetime")
        }
        self.init(
            accessToken: decoded.accessToken, refreshToken: decoded.refreshToken ?? previousRefreshToken,
            expiresAt: now.addingTimeInterval(TimeInterval(decoded.expiresIn)), scope: decoded.scope,
            tokenType: "Bearer")
    }
}
