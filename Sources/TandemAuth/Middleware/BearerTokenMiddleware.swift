#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

/// Sends the provider's access token and, when the server answers 401, refreshes the token once
/// and retries the request once.
///
/// A bearer token goes as `Authorization: Bearer <token>`. A token bound to a DPoP key (the
/// provider's ``AccessCredential`` has a ``AccessCredential/proofKey``) goes as
/// `Authorization: DPoP <token>` with a `DPoP` header: a fresh proof of the request's method,
/// its URL without query and fragment, and the token's hash (`ath`), dated by `clock`
/// (RFC 9449 §7).
///
/// A second 401 is returned as it is: a token the server refuses right after a refresh will not
/// be accepted by refreshing again, and looping would only burn refresh tokens.
///
/// ```swift
/// let client = HTTPClient(middlewares: [BearerTokenMiddleware(provider: coordinator)])
/// ```
public struct BearerTokenMiddleware: HTTPMiddleware {
    private let provider: any AccessTokenProvider
    private let clock: any WallClock

    /// A middleware taking tokens from `provider`.
    ///
    /// - Parameters:
    ///   - provider: Gives the current token and refreshes it after a 401.
    ///   - clock: Dates the DPoP proofs of bound tokens (`iat`).
    public init(provider: any AccessTokenProvider, clock: any WallClock = SystemClock()) {
        self.provider = provider
        self.clock = clock
    }

    /// Adds the token (and its proof), and on 401 refreshes once and retries once.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when a bound token's key cannot sign; the provider's
    ///   and the rest of the chain's errors.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        let credential = try await provider.accessCredential()
        let response = try await next(try authorized(request, with: credential))
        guard response.status == 401 else { return response }
        let refreshed = try await provider.refreshedAccessCredential(replacing: credential.token)
        return try await next(try authorized(request, with: refreshed))
    }

    private func authorized(_ request: HTTPRequest, with credential: AccessCredential) throws(AuthError) -> HTTPRequest {
        var request = request
        guard let key = credential.proofKey else {
            request.headers["Authorization"] = "Bearer \(credential.token)"
            return request
        }
        request.headers["Authorization"] = "\(TokenSet.dpopTokenType) \(credential.token)"
        do {
            request.headers[DPoPProof.headerName] = try DPoPProof.make(
                signer: key, method: request.method.rawValue, url: request.url, issuedAt: clock.now, accessToken: credential.token)
        } catch {
            throw .dpopKey("the DPoP key cannot sign a proof: \(error)")
        }
        return request
    }
}
