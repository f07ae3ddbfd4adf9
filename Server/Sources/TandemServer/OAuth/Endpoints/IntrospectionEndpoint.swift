import Foundation
import HTTPTypes
import Hummingbird

/// `POST /oauth/introspect` (RFC 7662): tells a resource server whether a token is active.
///
/// Callers authenticate with the API key of an app registered as a resource server
/// (``ServerAdministration/setResourceServer(clientID:audiences:)``), as `X-API-Key: tdk_…` or
/// HTTP Basic `client_id:api_key`; any other app's key gets `401 invalid_client`, so a key
/// shipped inside an app learns nothing. A token for an audience the resource server does not
/// serve is `{"active":false}`. Otherwise an access token is active while its signature
/// verifies, it has not expired and its grant is not revoked; a refresh token while it is
/// unrotated, unexpired and its grant live.
struct IntrospectionEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/oauth/introspect") { request, _ in try await respond(to: request) }
    }

    /// Handles one introspection request.
    func respond(to request: Request) async throws(HTTPError) -> Response {
        do {
            guard let callerID = try await APIKeyCaller.clientID(of: request, apps: context.apps) else {
                throw Self.unauthorized("authenticate with X-API-Key or HTTP Basic client_id:api_key")
            }
            guard let audiences = try await context.apps.resourceAudiences(clientID: callerID) else {
                context.logger.notice("introspection by an app that is no resource server", metadata: ["caller": "\(callerID)"])
                throw Self.unauthorized("this credential is not a resource server's")
            }
            if case .limited(let seconds) = context.introspectionLimiter.acquire("introspect:" + callerID) {
                throw HTTPError.tooManyRequests(retryAfter: seconds)
            }
            let form: FormBody
            switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
            case .success(let parsed): form = parsed
            case .failure(let failure): throw failure.httpError
            }
            guard let token = form["token"] else { throw HTTPError(.invalidRequest, "token is required") }
            let answer = try await introspect(token, audiences: audiences, now: Timestamp(context.clock.now))
            context.logger.info("token introspected", metadata: ["caller": "\(callerID)", "active": "\(answer.active)"])
            return JSONResponse.make(answer, noStore: true)
        } catch let error as HTTPError {
            throw error
        } catch {
            context.logger.error("introspection failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
    }

    /// `401 invalid_client` with the Basic challenge the caller should answer.
    private static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.invalidClient, message).challenge(HTTPError.invalidClientChallenge)
    }

    /// The answer about `token` for a resource server serving `audiences`.
    private func introspect(_ token: String, audiences: Set<String>, now: Timestamp) async throws(StorageError) -> IntrospectionResponse {
        if token.hasPrefix(SecretToken.Kind.refreshToken.rawValue) {
            guard let status = try await context.tokens.refreshTokenStatus(hash: SecretToken.hash(token)), status.isActive(at: now),
                  audiences.contains(status.family.audience)
            else {
                return .inactive
            }
            let username = try await context.accounts.user(id: status.family.userID)?.username
            return IntrospectionResponse(
                active: true, scope: status.family.scope, clientID: status.family.clientID, username: username,
                tokenType: "refresh_token", exp: status.expiresAt.milliseconds / 1000, iat: status.issuedAt.milliseconds / 1000,
                sub: status.family.userID, aud: status.family.audience, iss: context.accessTokens.issuer, jti: nil)
        }
        guard let claims = try? await context.accessTokens.verify(token, now: now),
              claims.aud.value.contains(where: audiences.contains),
              let familyID = claims.familyID,
              let family = try await context.tokens.family(id: familyID), family.revokedAt == nil
        else { return .inactive }
        let username = try await context.accounts.user(id: claims.sub.value)?.username
        return IntrospectionResponse(
            active: true, scope: claims.scope, clientID: claims.clientID, username: username,
            tokenType: claims.cnf == nil ? "Bearer" : "DPoP",
            exp: Int64(claims.exp.value.timeIntervalSince1970), iat: Int64(claims.iat.value.timeIntervalSince1970),
            sub: claims.sub.value, aud: claims.aud.value.joined(separator: " "), iss: claims.iss.value, jti: claims.jti.value,
            cnf: claims.cnf)
    }
}
