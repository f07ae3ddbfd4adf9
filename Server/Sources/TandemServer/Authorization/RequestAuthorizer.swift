import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// Checks the credential of a `/v1` request: a bearer access token signed by this server, a
/// DPoP-bound one (`Authorization: DPoP`) with a proof by its key (RFC 9449 §7), or the API key
/// of an app whose security mode is ``SecurityMode/apiKey``; then the scope.
///
/// A bound token (`cnf.jkt`) is refused as `Bearer`, and without a `DPoP` proof for this
/// request (method, URL, `ath` of the token) made by its key; each proof is accepted once, on
/// any instance (its `jti` is spent in the database: one insert per DPoP request).
///
/// The hot path costs no database query and no signature check once a credential has been seen:
/// a verified token's claims are cached, under the SHA-256 of the token, until the token's own
/// `exp`; an API-key lookup is cached for ``apiKeyCacheLifetime`` (so revoking a key, or changing
/// its app's security mode, takes effect within that time). Failures are never cached. A token
/// whose grant was revoked is refused before its `exp` through the ``RevocationList``.
///
/// ```swift
/// let authorizer = RequestAuthorizer(accessTokens: signer, storage: storage)
/// let principal = try await authorizer.authorize(request, requiring: OAuthScope.dataRead)
/// ```
struct RequestAuthorizer: Sendable {
    /// The scopes an API key carries: read business data and send events, never write data.
    static let apiKeyScopes: Set<String> = [OAuthScope.dataRead, OAuthScope.eventsWrite]
    /// The audiences accepted for reads: the host app's tokens and scoped extension tokens.
    static let readAudiences: Set<String> = [OAuthScope.apiAudience, OAuthScope.extensionAudience]

    /// Verifies access tokens (and supplies the expected issuer).
    let accessTokens: AccessTokenSigner
    /// Where apps and their API keys are registered.
    let apps: AppStore
    /// How long a successful API-key lookup is reused.
    let apiKeyCacheLifetime: Duration
    /// The grants revoked recently, whose unexpired access tokens are refused.
    let revocations: RevocationList
    /// What time it is, for a request's token expiry and the caches' lifetimes.
    let clock: any WallClock
    /// Checks the proofs of DPoP-bound tokens; `nil` refuses every bound token.
    let dpop: DPoPVerifier?

    private let tokens: ExpiringCache<Data, VerifiedToken>
    private let apiKeys: ExpiringCache<Data, String>

    /// Creates an authorizer.
    ///
    /// - Parameters:
    ///   - accessTokens: The server's signer, whose key and issuer tokens must match.
    ///   - apps: Where apps and their API keys are registered.
    ///   - apiKeyCacheLifetime: How long a successful API-key lookup is reused (default 30 s; the
    ///     server uses its `revocationRefreshInterval`, 1 s, so that a key revoked on one
    ///     instance is refused on all of them within it).
    ///   - cacheCapacity: The most tokens, and separately the most API keys, remembered.
    ///   - revocations: The revocation list shared with the revocation endpoint.
    ///   - clock: What time it is for ``authorize(_:requiring:audiences:)`` (default the system's).
    ///   - dpop: Checks the proofs of DPoP-bound tokens (`nil`: every bound token is refused).
    init(
        accessTokens: AccessTokenSigner, apps: AppStore, apiKeyCacheLifetime: Duration = .seconds(30), cacheCapacity: Int = 10_000,
        revocations: RevocationList, clock: any WallClock = SystemClock(), dpop: DPoPVerifier? = nil
    ) {
        self.clock = clock
        self.dpop = dpop
        self.accessTokens = accessTokens
        self.apps = apps
        self.apiKeyCacheLifetime = apiKeyCacheLifetime
        self.revocations = revocations
        tokens = ExpiringCache(capacity: cacheCapacity)
        apiKeys = ExpiringCache(capacity: cacheCapacity)
    }

    /// Checks a request's `Authorization` or `X-API-Key` header and the scope.
    ///
    /// - Parameters:
    ///   - request: The request; `Authorization` wins when both headers are sent.
    ///   - scope: The scope the endpoint requires.
    ///   - audiences: The token audiences accepted (default: ``readAudiences``).
    /// - Throws: ``AuthorizationFailure`` saying why the credential was refused.
    func authorize(
        _ request: Request, requiring scope: String, audiences: Set<String> = readAudiences
    ) async throws(AuthorizationFailure) -> RequestPrincipal {
        try await authorize(
            authorization: request.headers[.authorization], apiKey: request.headers[Self.apiKeyHeader],
            requiring: scope, audiences: audiences, now: Timestamp(clock.now), proof: { ProofContext(of: request, issuer: accessTokens.issuer) })
    }

    /// What a DPoP proof is checked against: the request's `DPoP` header values, its method and
    /// its URL as clients reach the server (the issuer's origin and the path).
    struct ProofContext: Sendable {
        var headers: [String]
        var method: String
        var url: String
    }

    /// Checks a request's `Authorization` or `X-API-Key` header but not its scope, for an
    /// endpoint that decides about the scope itself (and audits who lacked it).
    ///
    /// - Throws: ``AuthorizationFailure`` saying why the credential was refused.
    func authenticate(_ request: Request, audiences: Set<String> = readAudiences) async throws(AuthorizationFailure) -> RequestPrincipal {
        try await authorize(
            authorization: request.headers[.authorization], apiKey: request.headers[Self.apiKeyHeader],
            requiring: nil, audiences: audiences, now: Timestamp(clock.now), proof: { ProofContext(of: request, issuer: accessTokens.issuer) })
    }

    /// Checks credentials given as header values, as of `now`; see
    /// ``authorize(_:requiring:audiences:)``. A `nil` scope checks none; `proof` gives what a
    /// DPoP proof is checked against, asked for only when the token is DPoP-bound.
    func authorize(
        authorization: String?, apiKey: String?, requiring scope: String?, audiences: Set<String> = readAudiences, now: Timestamp,
        proof: () -> ProofContext? = { nil }
    ) async throws(AuthorizationFailure) -> RequestPrincipal {
        let principal: RequestPrincipal
        if let authorization {
            principal = try await token(authorization, audiences: audiences, now: now, proof: proof)
        } else if let apiKey {
            principal = try await app(apiKey: apiKey, now: now)
        } else {
            throw .missingCredential
        }
        if let scope, !principal.scopes.contains(scope) { throw .insufficientScope(scope) }
        return principal
    }

    /// For the `/v1` endpoints: ``authorize(_:requiring:audiences:)`` with a refusal turned
    /// into its error response (401, 403, or 503 when storage failed, which is logged).
    func check(
        _ request: Request, requiring scope: String, audiences: Set<String> = readAudiences, logger: Logger
    ) async throws(HTTPError) -> RequestPrincipal {
        do {
            return try await authorize(request, requiring: scope, audiences: audiences)
        } catch {
            if case .unavailable(let storageError) = error {
                logger.error("checking a credential failed", metadata: ["error": "\(storageError)"])
            }
            throw HTTPError(error)
        }
    }

    /// The `X-API-Key` header's name.
    static let apiKeyHeader = HTTPField.Name("X-API-Key")!

    // MARK: - Bearer tokens

    private func token(
        _ header: String, audiences: Set<String>, now: Timestamp, proof: () -> ProofContext?
    ) async throws(AuthorizationFailure) -> RequestPrincipal {
        let isDPoP: Bool
        let token: String
        if let bearer = Self.token(in: header, scheme: "bearer") {
            (isDPoP, token) = (false, bearer)
        } else if let bound = Self.token(in: header, scheme: "dpop") {
            (isDPoP, token) = (true, bound)
        } else {
            throw .invalidToken("the Authorization header must be Bearer <token> or DPoP <token>")
        }
        let key = ExpiringCache<Data, VerifiedToken>.key(of: token)
        let verified: VerifiedToken
        if let cached = tokens.value(for: key, now: now) {
            verified = cached
        } else {
            let claims: AccessTokenClaims
            do {
                claims = try await accessTokens.verify(token, now: now)
            } catch {
                throw .invalidToken("bad signature, malformed or expired")
            }
            guard claims.iss.value == accessTokens.issuer else { throw .invalidToken("issued by another server") }
            verified = VerifiedToken(
                principal: RequestPrincipal(
                    clientID: claims.clientID, subject: claims.sub.value, scopes: OAuthScope.parse(claims.scope),
                    audience: claims.aud.value, credential: .bearer, familyID: claims.familyID),
                familyID: claims.familyID, jkt: claims.cnf?.jkt,
                expiresAt: Timestamp(milliseconds: Int64((claims.exp.value.timeIntervalSince1970 * 1000).rounded(.down))))
            tokens.store(verified, for: key, validUntil: verified.expiresAt, now: now)
        }
        // Checked on every use: a cached token still expires on time.
        guard verified.expiresAt > now else { throw .invalidToken("expired") }
        if let familyID = verified.familyID, await revocations.contains(familyID, now: now) {
            throw .invalidToken("its grant has been revoked")
        }
        guard verified.principal.audience?.contains(where: audiences.contains) == true else {
            throw .invalidToken("issued for another audience")
        }
        guard let jkt = verified.jkt else {
            if isDPoP { throw .invalidToken("the token is not DPoP-bound: send it as Bearer") }
            return verified.principal
        }
        guard isDPoP else { throw .invalidToken("the token is DPoP-bound: send it as DPoP <token> with a DPoP proof") }
        try await checkProof(proof(), token: token, jkt: jkt)
        var principal = verified.principal
        principal.credential = .dpop
        return principal
    }

    /// Checks the request's proof for the bound token (RFC 9449 §7.1): made for this request
    /// and this token (`ath`), by the key `jkt`, and never seen before. The proof is recorded
    /// only once all of that holds: a stolen token with a proof by another key writes nothing.
    private func checkProof(_ context: ProofContext?, token: String, jkt: String) async throws(AuthorizationFailure) {
        guard let dpop, let context else { throw .invalidDPoPProof("this server does not check DPoP proofs here") }
        let checked: DPoPVerifier.CheckedProof?
        do {
            checked = try dpop.check(context.headers, method: context.method, url: context.url, accessToken: token)
        } catch {
            throw .invalidDPoPProof(error.description)
        }
        guard let checked else { throw .invalidDPoPProof("a DPoP-bound token needs a DPoP proof") }
        guard ConstantTime.equals(checked.jkt, jkt) else { throw .invalidDPoPProof(DPoPError.keyMismatch.description) }
        do {
            try await dpop.spend(checked.record)
        } catch {
            switch error {
            case .proof(let refusal): throw .invalidDPoPProof(refusal.description)
            case .storage(let storageError): throw .unavailable(storageError)
            }
        }
    }

    /// The token of an `Authorization: Bearer <token>` value (scheme case-insensitive), or `nil`.
    static func bearerToken(in header: String) -> String? {
        token(in: header, scheme: "bearer")
    }

    /// The token of an `Authorization: <scheme> <token>` value (`scheme` in lowercase ASCII,
    /// matched case-insensitively), or `nil`. The header's bytes are scanned in place, without a
    /// string for the scheme: this runs on every request, over a token of several hundred bytes.
    static func token(in header: String, scheme: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            let space = UInt8(ascii: " ")
            guard let end = bytes.firstIndex(of: space), end == scheme.utf8.count,
                  zip(bytes[..<end], scheme.utf8).allSatisfy({ $0 | 0x20 == $1 })
            else { return nil }
            guard let start = bytes[end...].firstIndex(where: { $0 != space }) else { return nil }
            let token = UnsafeBufferPointer(rebasing: bytes[start...])
            guard !token.contains(where: { $0 == space || $0 == UInt8(ascii: "\t") }) else { return nil }
            return String(decoding: token, as: UTF8.self)
        }
    }

    /// What a verified access token grants, kept until the token expires.
    private struct VerifiedToken: Sendable {
        let principal: RequestPrincipal
        let familyID: String?
        /// The thumbprint of the key the token is bound to (`cnf.jkt`), if any.
        let jkt: String?
        let expiresAt: Timestamp
    }

    // MARK: - API keys

    /// Forgets the cached lookup of the key whose stored hash (lowercase hex SHA-256) is
    /// `hash`, after this process revoked it: the key is refused at once here (other processes
    /// refuse it within ``apiKeyCacheLifetime``).
    func forgetAPIKey(hash: String) {
        var bytes: [UInt8] = []
        var index = hash.startIndex
        while index < hash.endIndex, let next = hash.index(index, offsetBy: 2, limitedBy: hash.endIndex) {
            guard let byte = UInt8(hash[index..<next], radix: 16) else { return }
            bytes.append(byte)
            index = next
        }
        apiKeys.removeValue(for: Data(bytes))
    }

    private func app(apiKey: String, now: Timestamp) async throws(AuthorizationFailure) -> RequestPrincipal {
        guard apiKey.hasPrefix(SecretToken.Kind.apiKey.rawValue) else { throw .invalidAPIKey("not a Tandem API key") }
        let key = ExpiringCache<Data, String>.key(of: apiKey)
        let clientID: String
        if let cached = apiKeys.value(for: key, now: now) {
            clientID = cached
        } else {
            let hash = SecretToken.hash(apiKey)
            let record: APIKeyRecord?
            let app: AppRecord?
            do throws(StorageError) {
                record = try await apps.apiKey(hash: hash)
                app = if let record { try await apps.app(clientID: record.clientID) } else { nil }
            } catch {
                throw .unavailable(error)
            }
            guard let record else { throw .invalidAPIKey("unknown key") }
            guard record.revokedAt == nil else { throw .invalidAPIKey("revoked") }
            guard let app, app.securityMode == .apiKey else { throw .invalidAPIKey("the app signs in with OAuth, not API keys") }
            clientID = app.clientID
            apiKeys.store(clientID, for: key, validUntil: now.adding(apiKeyCacheLifetime), now: now)
        }
        return RequestPrincipal(clientID: clientID, subject: nil, scopes: Self.apiKeyScopes, audience: nil, credential: .apiKey)
    }
}

extension RequestAuthorizer.ProofContext {
    /// The context of `request` on the server whose issuer URL is `issuer`.
    init(of request: Request, issuer: String) {
        self.init(headers: request.headers[values: .dpop], method: request.method.rawValue, url: issuer + request.uri.path)
    }
}
