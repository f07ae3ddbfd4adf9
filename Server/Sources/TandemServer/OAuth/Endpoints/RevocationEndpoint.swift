import Foundation
import Hummingbird
import NIOCore
import TandemProtocol

/// `POST /oauth/revoke` (RFC 7009): revokes the grant behind a refresh token or an access token.
///
/// Revoking either kind revokes the token's whole family (and the extension grants exchanged
/// from it), so no access token can be minted from it again, and the `/v1` endpoints refuse its
/// unexpired access tokens (at once here, within a second on other instances: ``RevocationList``). The answer is `200` with an empty
/// body for unknown tokens and for tokens of another client alike, so the endpoint does not
/// reveal which tokens exist.
///
/// A grant bound to a DPoP key is ended only by someone who can show they hold it: with a
/// `DPoP` proof by its key (for this endpoint), or with its current refresh token. An old,
/// spent refresh token or a bound access token without the key is answered `200` like any
/// unknown token, and the grant lives on: a token taken from a backup cannot end the owner's
/// session.
struct RevocationEndpoint: Sendable {
    /// The shared OAuth services.
    let context: OAuthEndpointContext

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.post("/oauth/revoke") { request, requestContext in try await respond(to: request, source: requestContext.sourceKey) }
    }

    /// Handles one revocation request from `source` (the caller's address: a known client's
    /// limit is per client and address).
    func respond(to request: Request, source: String = "") async throws(HTTPError) -> Response {
        let form: FormBody
        switch await FormReader.read(request, maxBodySize: context.maxBodySize) {
        case .success(let parsed): form = parsed
        case .failure(let failure): throw failure.httpError
        }
        guard let token = form["token"] else { throw HTTPError(.invalidRequest, "token is required") }
        guard let clientID = form["client_id"] else { throw HTTPError(.invalidRequest, "client_id is required") }
        do {
            let isRegistered = try await context.clients.app(clientID: clientID) != nil
            if case .limited(let seconds) = context.tokenLimiter.acquire(isRegistered ? "revoke:\(clientID) \(source)" : "revoke-unknown") {
                throw HTTPError.tooManyRequests(retryAfter: seconds)
            }
            guard isRegistered else { throw HTTPError.invalidClient(for: request) }
            guard let family = try await family(of: token), family.clientID == clientID else {
                context.logger.info("revocation of an unknown or foreign token", metadata: ["client_id": "\(clientID)"])
                return Self.ok
            }
            if let jkt = family.dpopJKT {
                guard try await mayEnd(family, boundTo: jkt, with: token, request: request) else {
                    context.logger.notice(
                        "revocation of a DPoP-bound grant without its key", metadata: ["client_id": "\(clientID)", "family": "\(family.id)"])
                    return Self.ok
                }
            }
            let now = Timestamp(context.clock.now)
            context.revocations.insert(try await context.tokens.revokeFamily(id: family.id, now: now), now: now)
            context.logger.info("grant revoked", metadata: ["client_id": "\(clientID)", "family": "\(family.id)"])
            return Self.ok
        } catch let error as HTTPError {
            throw error
        } catch {
            context.logger.error("revocation failed", metadata: ["client_id": "\(clientID)", "error": "\(error)"])
            throw .unavailable
        }
    }

    /// The family of a refresh token (by hash) or of a valid access token (by its `fid` claim).
    private func family(of token: String) async throws(StorageError) -> TokenFamily? {
        if token.hasPrefix(SecretToken.Kind.refreshToken.rawValue) {
            return try await context.tokens.family(ofTokenHash: SecretToken.hash(token))
        }
        guard let claims = try? await context.accessTokens.verify(token, now: Timestamp(context.clock.now)), let familyID = claims.familyID
        else { return nil }
        return try await context.tokens.family(id: familyID)
    }

    /// Whether a request may end a grant bound to the key `jkt`: a proof by that key (recorded
    /// once checked), or the grant's current refresh token.
    private func mayEnd(_ family: TokenFamily, boundTo jkt: String, with token: String, request: Request) async throws -> Bool {
        let url = context.accessTokens.issuer + "/oauth/revoke"
        if let proof = try? context.dpop.check(request.headers[values: .dpop], method: "POST", url: url),
           ConstantTime.equals(proof.jkt, jkt) {
            do throws(DPoPVerificationError) {
                try await context.dpop.spend(proof.record)
                return true
            } catch {
                guard case .proof = error else { throw error }
                return false
            }
        }
        guard token.hasPrefix(SecretToken.Kind.refreshToken.rawValue),
              let status = try await context.tokens.refreshTokenStatus(hash: SecretToken.hash(token))
        else { return false }
        return !status.isRotated && status.expiresAt > Timestamp(context.clock.now)
    }

    private static var ok: Response {
        Response(status: .ok, headers: [.cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer()))
    }
}
