#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

extension OAuthClient {
    // MARK: - Authorization code + PKCE

    /// Starts a sign-in: a fresh random `state` and PKCE verifier, and the authorization URL
    /// (with the S256 challenge) to open in the browser.
    ///
    /// - Parameter scopes: The scopes to request; the configuration's by default.
    /// - Throws: ``AuthError/unsupportedServer(_:)`` when the server offers no authorization
    ///   endpoint or no S256 PKCE; ``AuthError/invalidConfiguration(_:)`` without a redirect URI.
    public func startAuthorization(scopes: [String]? = nil) async throws(AuthError) -> PendingAuthorization {
        guard let redirectURI = configuration.redirectURI else {
            throw .invalidConfiguration("an OAuth sign-in needs a redirect_uri")
        }
        let metadata = try await metadata()
        guard let authorization = metadata.authorizationEndpoint else { throw .unsupportedServer("the authorization endpoint") }
        let endpoint = try Self.url(authorization, field: "authorization_endpoint")
        guard metadata.codeChallengeMethodsSupported?.contains(PKCE.method) == true else {
            throw .unsupportedServer("PKCE with S256")
        }
        let verifier = PKCEVerifier()
        let state = PKCEVerifier().value  // 256 random bits in base64url
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) ?? URLComponents()
        let parameters: [(String, String?)] = [
            ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", redirectURI.absoluteString),
            ("scope", (scopes ?? configuration.scopes).joined(separator: " ")), ("state", state),
            ("code_challenge", verifier.challenge), ("code_challenge_method", PKCE.method),
        ]
        components.percentEncodedQuery = FormEncoding.query(parameters)
        guard let url = components.url else { throw .invalidConfiguration("cannot form the authorization URL") }
        return PendingAuthorization(url: url, state: state, verifier: verifier, redirectURI: redirectURI)
    }

    /// The authorization code in `redirect`, after checking that it answers `pending`.
    ///
    /// - Parameters:
    ///   - redirect: The URL the browser was sent back to.
    ///   - pending: The sign-in it should answer.
    /// - Throws: ``AuthError/invalidRedirect(_:)`` when it is not the redirect URI or carries no
    ///   code, ``AuthError/stateMismatch`` when its `state` is not ours (checked first, in constant
    ///   time, so a forged error redirect is refused too), ``AuthError/authorizationFailed(code:description:)``
    ///   for an `error=` redirect.
    public func authorizationCode(from redirect: URL, for pending: PendingAuthorization) throws(AuthError) -> String {
        guard let components = URLComponents(url: redirect, resolvingAgainstBaseURL: false),
              let expected = URLComponents(url: pending.redirectURI, resolvingAgainstBaseURL: false),
              components.scheme?.lowercased() == expected.scheme?.lowercased(),
              components.host?.lowercased() == expected.host?.lowercased(),
              components.port == expected.port, components.path == expected.path
        else { throw .invalidRedirect("it does not go to the redirect URI") }
        let items = components.queryItems ?? []
        func single(_ name: String) throws(AuthError) -> String? {
            let values = items.filter { $0.name == name }
            guard values.count <= 1 else { throw .invalidRedirect("\(name) is repeated") }
            return values.first?.value
        }
        guard let state = try single("state"), ConstantTime.equals(state, pending.state) else { throw .stateMismatch }
        if let error = try single("error") {
            throw .authorizationFailed(code: error, description: try single("error_description"))
        }
        guard let code = try single("code"), !code.isEmpty else { throw .invalidRedirect("it carries no code") }
        return code
    }

    /// Redeems an authorization code of `pending` for tokens, with its PKCE verifier; with a
    /// ``dpopKey`` the request carries a proof and the grant is bound to that key. With a
    /// `stepUpKey`, the new sign-in enrols it (``StepUpKeyEnrolment``, signed by it): the
    /// server then accepts step-up proofs for this sign-in signed by that key, and by no other.
    ///
    /// - Throws: ``AuthError/reauthenticationRequired`` when the code is invalid, spent or
    ///   expired (`invalid_grant`: start a new sign-in), ``AuthError/dpopKey(_:)`` when the
    ///   configuration requires DPoP and there is no usable key, ``AuthError/stepUpKey(_:)``
    ///   when the step-up key cannot sign (nothing is sent), and the other errors of a token
    ///   request.
    public func exchangeCode(
        _ code: String, for pending: PendingAuthorization, stepUpKey: (any DPoPSigner)? = nil
    ) async throws(AuthError) -> TokenSet {
        var parameters: [(String, String?)] = [
            ("grant_type", GrantType.authorizationCode.rawValue), ("code", code), ("redirect_uri", pending.redirectURI.absoluteString),
            ("client_id", configuration.clientID), ("code_verifier", pending.verifier.value),
        ]
        if let stepUpKey { parameters.append((StepUpKeyEnrolment.parameterName, try await enrolment(of: stepUpKey))) }
        return try await tokenRequest(parameters, signer: try proofSigner(dpopKey, required: configuration.dpopRequired))
    }

    /// Checks `redirect` against `pending` and redeems its code: the end of a sign-in, which
    /// enrols `stepUpKey` when given (see ``exchangeCode(_:for:stepUpKey:)``).
    public func completeAuthorization(
        redirect: URL, for pending: PendingAuthorization, stepUpKey: (any DPoPSigner)? = nil
    ) async throws(AuthError) -> TokenSet {
        try await exchangeCode(try authorizationCode(from: redirect, for: pending), for: pending, stepUpKey: stepUpKey)
    }
}
