#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

/// The OAuth 2 client of a public app (no client secret): discovery, sign-in with authorization
/// code + PKCE, refresh, revocation and the token exchange that mints an extension grant.
///
/// It keeps no tokens: callers store what it returns (``TokenStore``) and refresh through a
/// ``RefreshCoordinator`` so that processes sharing a grant never redeem one refresh token twice.
///
/// ```swift
/// let oauth = OAuthClient(configuration: configuration, client: HTTPClient())
/// let pending = try await oauth.startAuthorization()
/// let redirect = try await browser.open(pending.url)        // the app's presenter
/// let tokens = try await oauth.completeAuthorization(redirect: redirect, for: pending)
/// ```
///
/// With a DPoP key (RFC 9449) every token request of its grant carries a proof signed by that
/// key, and the grant comes back bound to it (``TokenSet/isDPoPBound``); <doc:BindingTokensToAKey>
/// says which key signs what. Without one, and when the configuration does not require DPoP,
/// requests are what they always were.
public final class OAuthClient: Sendable {
    /// The app and server this client works for.
    public let configuration: ClientConfiguration
    let client: HTTPClient
    /// The time tokens' expiries are computed at, and the SSO approval's polling waits on;
    /// coordinators built on this client read it too.
    public let clock: any WallClock
    /// The key of this client's own grant: it signs the proofs of sign-in, SSO redemption and
    /// ``refresh(_:)``; `nil` to send no proof (unless the configuration requires DPoP, when
    /// token requests then fail with ``AuthError/dpopKey(_:)``).
    public let dpopKey: (any DPoPKeyProvider)?
    private let cachedMetadata = Locked<AuthorizationServerMetadata?>(nil)
    /// The last `DPoP-Nonce` a token endpoint answer carried, for the next proof.
    let dpopNonce = Locked<String?>(nil)

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: The app's client id, redirect URI, scopes and server URL.
    ///   - client: Sends the requests; give it logging and correlation middlewares, not a bearer
    ///     token middleware (token requests carry no bearer token).
    ///   - clock: The current date, to turn `expires_in` into an expiry and to date DPoP
    ///     proofs (`iat`); the SSO approval's polling waits on it too.
    ///   - dpopKey: The key of this client's grant: ``DPoPKeyStore/host(in:makesMissingKey:)``
    ///     in the host; `nil` for none. (The widgets' grant is refreshed with the key given to
    ///     ``refresh(_:dpopKey:)``, as ``RefreshCoordinator/extensionGrant(container:share:oauth:dpopKey:leaseDuration:onEvent:)`` does.)
    public init(
        configuration: ClientConfiguration, client: HTTPClient, clock: any WallClock = SystemClock(),
        dpopKey: (any DPoPKeyProvider)? = nil
    ) {
        self.configuration = configuration
        self.client = client
        self.clock = clock
        self.dpopKey = dpopKey
    }

    // MARK: - Discovery

    /// The server's RFC 8414 metadata, fetched once from `/.well-known/oauth-authorization-server`
    /// and then cached for the life of this client.
    ///
    /// - Throws: ``AuthError/malformedResponse(_:)`` when the document is not metadata,
    ///   ``AuthError/issuerMismatch(expected:actual:)`` when its `issuer` is not the configured
    ///   server (RFC 8414 §3.3), or the errors of the request.
    public func metadata() async throws(AuthError) -> AuthorizationServerMetadata {
        if let cached = cachedMetadata.withLock({ $0 }) { return cached }
        guard let url = URL(string: APIPath.serverMetadata, relativeTo: configuration.serverURL)?.absoluteURL else {
            throw .invalidConfiguration("server_url cannot form the metadata URL")
        }
        let response = try await client.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        guard response.isSuccess else { throw AuthError(response: response) }
        let metadata: AuthorizationServerMetadata
        do {
            metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: response.body)
        } catch {
            throw .malformedResponse("the authorization server metadata is not the expected JSON")
        }
        try ServerAllowlist.checkIssuer(try Self.url(metadata.issuer, field: "issuer"), expected: configuration.serverURL)
        _ = try Self.url(metadata.tokenEndpoint, field: "token_endpoint")
        cachedMetadata.withLock { $0 = metadata }
        return metadata
    }

    // MARK: - Tokens

    /// Redeems `tokens`' refresh token for a new token set (the server rotates it: the old one
    /// is spent), signing with this client's ``dpopKey`` when the grant is bound to a key or the
    /// configuration requires DPoP. Use a ``RefreshCoordinator`` rather than calling this
    /// directly when several processes share the grant.
    ///
    /// - Throws: ``AuthError/reauthenticationRequired`` when the grant is gone (`invalid_grant`)
    ///   or `tokens` has no refresh token; ``AuthError/rateLimited(retryAfter:)``; others.
    public func refresh(_ tokens: TokenSet) async throws(AuthError) -> TokenSet {
        try await refresh(tokens, dpopKey: dpopKey)
    }

    /// Redeems `tokens`' refresh token, signing the proof with `dpopKey`: the key the grant is
    /// bound to, such as the widgets' key for the extension grant.
    ///
    /// A proof is sent when `tokens` is bound (``TokenSet/isDPoPBound``) or the configuration
    /// requires DPoP; a `Bearer` grant of an app without DPoP is refreshed as before, whatever
    /// `dpopKey` is.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when a proof is needed and there is no usable key
    ///   (nothing is sent); a server's `invalid_dpop_proof` (another key than the grant's) as
    ///   ``AuthError/server(status:code:description:)``, the refresh token then unspent; and the
    ///   errors of ``refresh(_:)``.
    public func refresh(_ tokens: TokenSet, dpopKey: (any DPoPKeyProvider)?) async throws(AuthError) -> TokenSet {
        guard let refreshToken = tokens.refreshToken else { throw .reauthenticationRequired }
        let signer = try proofSigner(dpopKey, required: tokens.isDPoPBound || configuration.dpopRequired, signsWhenGiven: false)
        return try await tokenRequest(
            [("grant_type", GrantType.refreshToken.rawValue), ("refresh_token", refreshToken), ("client_id", configuration.clientID)],
            signer: signer, previousRefreshToken: refreshToken)
    }

    /// Revokes `token` and with it its whole grant (RFC 7009), as on sign-out. The server
    /// answers success for tokens it does not know, so revoking twice is harmless.
    ///
    /// - Parameters:
    ///   - token: A refresh token (preferred: it ends the grant) or an access token.
    ///   - hint: `refresh_token` or `access_token`, or `nil`.
    /// - Throws: ``AuthError/unsupportedServer(_:)`` when the server has no revocation endpoint.
    public func revoke(_ token: String, hint: String? = nil) async throws(AuthError) {
        try await revoke(token, hint: hint, signer: nil)
    }

    /// Revokes the grant of `tokens`: through its refresh token when it has one. A DPoP-bound
    /// grant is revoked with a proof by its key (`dpopKey`, by default this client's), which the
    /// server requires unless the token is the grant's current refresh token: the revocation of
    /// a bound grant then works whichever of its tokens the caller holds.
    ///
    /// - Throws: ``AuthError/dpopKey(_:)`` when the grant is bound and the key cannot sign (nothing
    ///   is sent); the errors of ``revoke(_:hint:)``.
    public func revoke(_ tokens: TokenSet, dpopKey: (any DPoPKeyProvider)? = nil) async throws(AuthError) {
        let signer = tokens.isDPoPBound ? try (dpopKey ?? self.dpopKey)?.key() : nil
        if let refreshToken = tokens.refreshToken {
            try await revoke(refreshToken, hint: "refresh_token", signer: signer)
        } else {
            try await revoke(tokens.accessToken, hint: "access_token", signer: signer)
        }
    }

    private func revoke(_ token: String, hint: String?, signer: (any DPoPSigner)?) async throws(AuthError) {
        guard let revocation = try await metadata().revocationEndpoint else {
            throw .unsupportedServer("token revocation (RFC 7009)")
        }
        let endpoint = try Self.url(revocation, field: "revocation_endpoint")
        var request = HTTPRequest.form(to: endpoint, [("token", token), ("token_type_hint", hint), ("client_id", configuration.clientID)])
        if let signer {
            do {
                request.headers[DPoPProof.headerName] = try DPoPProof.make(
                    signer: signer, method: HTTPRequest.Method.post.rawValue, url: endpoint, issuedAt: clock.now)
            } catch {
                throw .dpopKey("the DPoP key cannot sign a proof: \(error)")
            }
        }
        let response = try await client.send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }

    /// Exchanges the user's access token for a scoped, read-only extension grant with its own
    /// refresh token (RFC 8693), to be stored in the shared container for extensions.
    ///
    /// The exchange is a use of the user's token: when it is DPoP-bound (or the configuration
    /// requires DPoP) the request carries a proof by this client's own ``dpopKey`` for that
    /// token (`ath`), as a resource request does. The new grant is bound to `dpopKey`, the
    /// widgets' own, which proves itself in a second proof (``DPoPProof/bindHeaderName``): the
    /// widgets must be able to sign their refreshes and requests with it.
    ///
    /// ```swift
    /// let grant = try await oauth.exchangeForExtensionGrant(
    ///     accessToken: userToken, subjectTokenIsBound: userTokens.isDPoPBound, dpopKey: DPoPKeyStore.widgets(in: sharedSecrets))
    /// ```
    ///
    /// - Parameters:
    ///   - accessToken: The user's live access token (needs scope `data.read`).
    ///   - subjectTokenIsBound: Whether `accessToken` is DPoP-bound (its ``TokenSet/isDPoPBound``).
    ///   - audience: The extension audience; `OAuthScope/extensionAudience` by default.
    ///   - dpopKey: The widgets' key, to bind the extension grant to; `nil` for a `Bearer` grant
    ///     (refused by the server when the user's token is bound).
    /// - Throws: ``AuthError/dpopKey(_:)`` when a proof is needed and a key is missing or
    ///   unusable; ``AuthError/server(status:code:description:)`` when the server refuses
    ///   the subject token, or the other errors of a token request.
    public func exchangeForExtensionGrant(
        accessToken: String, subjectTokenIsBound: Bool = false, audience: String = OAuthScope.extensionAudience,
        dpopKey widgetsKey: (any DPoPKeyProvider)? = nil
    ) async throws(AuthError) -> TokenSet {
        let required = subjectTokenIsBound || configuration.dpopRequired
        let response = try await sendTokenRequest([
            ("grant_type", GrantType.tokenExchange.rawValue), ("client_id", configuration.clientID),
            ("subject_token", accessToken), ("subject_token_type", TokenTypeIdentifier.accessToken.rawValue), ("audience", audience),
        ], signer: required ? try proofSigner(dpopKey, required: true) : nil, accessToken: accessToken,
           bindSigner: try proofSigner(widgetsKey, required: configuration.dpopRequired))
        return try TokenSet(tokenEndpointAnswer: response, now: clock.now, previousRefreshToken: nil, sentProof: required || widgetsKey != nil)
    }

    /// Posts `parameters` to the token endpoint (with a proof by `signer`, when given) and
    /// reads the token set it answers.
    ///
    /// - Parameter previousRefreshToken: Kept when the answer carries no new refresh token.
    func tokenRequest(
        _ parameters: [(String, String?)], signer: (any DPoPSigner)?, previousRefreshToken: String? = nil
    ) async throws(AuthError) -> TokenSet {
        let response = try await sendTokenRequest(parameters, signer: signer)
        return try TokenSet(tokenEndpointAnswer: response, now: clock.now, previousRefreshToken: previousRefreshToken, sentProof: signer != nil)
    }

    /// The absolute URL a metadata field names.
    ///
    /// - Throws: ``AuthError/malformedResponse(_:)`` when it is not one.
    static func url(_ string: String, field: String) throws(AuthError) -> URL {
        guard let url = URL(string: string), url.scheme != nil else {
            throw .malformedResponse("the authorization server metadata's \(field) is not an absolute URL")
        }
        return url
    }
}
