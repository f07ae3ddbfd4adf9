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
    /// - Parameter sentProof: Whether the request carried a DPoP proof: only then may the
    ///   answer be a `DPoP` token (RFC 9449 §5); otherwise it must be `Bearer`.
    /// - Throws: The ``AuthError`` of an error answer (``AuthError/init(response:)``), or
    ///   ``AuthError/malformedResponse(_:)`` when a 2xx body is not a usable token.
    init(tokenEndpointAnswer response: HTTPResponse, now: Date, previousRefreshToken: String? = nil, sentProof: Bool = false) throws(AuthError) {
        guard response.isSuccess else { throw AuthError(response: response) }
        let decoded: TokenResponse
        do {
            decoded = try JSONDecoder().decode(TokenResponse.self, from: response.body)
        } catch {
            throw .malformedResponse("the token response is not the expected JSON")
        }
        let tokenType: String
        switch decoded.tokenType.lowercased() {
        case "bearer": tokenType = "Bearer"
        case TokenSet.dpopTokenType.lowercased() where sentProof: tokenType = TokenSet.dpopTokenType
        default: throw .malformedResponse("token_type \(decoded.tokenType) is not \(sentProof ? "Bearer or DPoP" : "Bearer")")
        }
        guard !decoded.accessToken.isEmpty, decoded.expiresIn > 0 else {
            throw .malformedResponse("the token response has an empty access token or no lifetime")
        }
        self.init(
            accessToken: decoded.accessToken, refreshToken: decoded.refreshToken ?? previousRefreshToken,
            expiresAt: now.addingTimeInterval(TimeInterval(decoded.expiresIn)), scope: decoded.scope,
            tokenType: tokenType)
    }
}
