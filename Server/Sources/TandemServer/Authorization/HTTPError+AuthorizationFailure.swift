extension HTTPError {
    /// The `/v1` answer for a refused credential: 401 `invalid_token` or 403
    /// `insufficient_scope` with their `WWW-Authenticate` challenge (RFC 6750 §3), or 503.
    init(_ failure: AuthorizationFailure) {
        switch failure {
        case .missingCredential:
            // RFC 6750 §3.1: a request without credentials gets the challenge without an error code.
            self.init(.invalidToken, failure.description, challenge: #"Bearer realm="tandem""#)
        case .invalidToken, .invalidAPIKey:
            let message = failure.description
            self.init(.invalidToken, message, challenge: #"Bearer realm="tandem", error="invalid_token", error_description="\#(message)""#)
        case .invalidDPoPProof:
            let message = failure.description
            self.init(
                .invalidDPoPProof, message,
                challenge: #"DPoP algs="ES256", error="invalid_dpop_proof", error_description="\#(message)""#)
        case .insufficientScope(let scope):
            self.init(.insufficientScope, failure.description, challenge: #"Bearer realm="tandem", error="insufficient_scope", scope="\#(scope)""#)
        case .unavailable:
            self = .unavailable
        }
    }
}
