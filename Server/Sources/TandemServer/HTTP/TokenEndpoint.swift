import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `POST /oauth/token` (RFC 6749 §3.2): form-encoded requests, JSON responses, RFC error bodies,
/// `Cache-Control: no-store`. Supports `grant_type=refresh_token` with rotation; other grant
/// types answer `unsupported_grant_type` until they land.
///
/// Bad input is refused before anything is written: a malformed or oversized body, a repeated
/// parameter, a missing field or an unknown client never reaches the token tables.
struct TokenEndpoint: Sendable {
    /// Redeems refresh tokens.
    let refreshTokens: RefreshTokenService
    /// Mints access tokens.
    let accessTokens: AccessTokenSigner
    /// Looks up clients.
    let storage: any ServerStorage
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives one line per outcome, never a secret.
    let logger: Logger

    /// Adds the route to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.post("/oauth/token") { request, _ in await respond(to: request) }
    }

    /// Handles one token request.
    func respond(to request: Request) async -> Response {
        let form: FormBody
        switch await readForm(request) {
        case .success(let parsed): form = parsed
        case .failure(let failure): return failure.response
        }
        guard let grantType = form["grant_type"] else {
            return JSONResponse.oauthError(.invalidRequest, "grant_type is required")
        }
        guard grantType == "refresh_token" else {
            return JSONResponse.oauthError(.unsupportedGrantType, "this server supports grant_type=refresh_token")
        }
        guard let clientID = form["client_id"] else {
            return JSONResponse.oauthError(.invalidRequest, "client_id is required")
        }
        guard let refreshToken = form["refresh_token"] else {
            return JSONResponse.oauthError(.invalidRequest, "refresh_token is required")
        }
        return await refresh(token: refreshToken, clientID: clientID)
    }

    private func refresh(token: String, clientID: String) async -> Response {
        do {
            guard try await storage.app(clientID: clientID) != nil else {
                logger.notice("token request from unknown client", metadata: ["client_id": "\(clientID)"])
                return JSONResponse.oauthError(.invalidClient, "unknown client")
            }
            let now = Timestamp.now()
            let redemption = try await refreshTokens.redeem(token: token, clientID: clientID, now: now)
            let accessToken = try await accessTokens.sign(for: redemption.family, now: now)
            logger.info("refresh token redeemed", metadata: [
                "client_id": "\(clientID)", "family": "\(redemption.family.id)", "grace_replay": "\(redemption.isGraceReplay)",
            ])
            let seconds = accessTokens.lifetime.components.seconds
            return JSONResponse.make(
                TokenResponse(accessToken: accessToken, expiresIn: seconds, refreshToken: redemption.refreshToken.value, scope: redemption.family.scope),
                noStore: true)
        } catch TokenError.invalidGrant(let reason) {
            logger.notice("refresh token refused", metadata: ["client_id": "\(clientID)", "reason": "\(reason.rawValue)"])
            return JSONResponse.oauthError(.invalidGrant, Self.describe(reason))
        } catch {
            logger.error("token request failed", metadata: ["client_id": "\(clientID)", "error": "\(error)"])
            return JSONResponse.oauthError(.temporarilyUnavailable, "the server could not complete the request; retry later")
        }
    }

    private func readForm(_ request: Request) async -> Result<FormBody, ResponseFailure> {
        guard let contentType = request.headers[.contentType],
              contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else {
            return .failure(ResponseFailure(JSONResponse.oauthError(.invalidRequest, "the body must be application/x-www-form-urlencoded")))
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize {
            return .failure(ResponseFailure(tooLarge))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodySize)
        } catch is NIOTooManyBytesError {
            return .failure(ResponseFailure(tooLarge))
        } catch {
            return .failure(ResponseFailure(JSONResponse.oauthError(.invalidRequest, "the body could not be read")))
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            return .failure(ResponseFailure(JSONResponse.oauthError(.invalidRequest, "the body is not UTF-8")))
        }
        do {
            return .success(try FormBody(parsing: text))
        } catch .repeatedParameter(let name) {
            return .failure(ResponseFailure(JSONResponse.oauthError(.invalidRequest, "parameter \(name) is repeated")))
        } catch {
            return .failure(ResponseFailure(JSONResponse.oauthError(.invalidRequest, "the form body is malformed")))
        }
    }

    private var tooLarge: Response {
        JSONResponse.oauthError(.invalidRequest, "the request body exceeds \(maxBodySize) bytes", status: .contentTooLarge)
    }

    private static func describe(_ reason: TokenError.InvalidGrantReason) -> String {
        switch reason {
        case .unknownToken: "the refresh token is not valid"
        case .expired: "the refresh token has expired"
        case .reused: "the refresh token was already used; its grant is revoked"
        case .familyRevoked: "the grant has been revoked"
        case .wrongClient: "the refresh token was not issued to this client"
        }
    }

    /// A response that ends the request early, carried through `Result`.
    struct ResponseFailure: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }
}
