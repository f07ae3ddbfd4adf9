/// What can go wrong issuing or redeeming tokens.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The grant is not valid (RFC 6749 `invalid_grant`); the reason is for logs and tests, the
    /// client sees only that it must sign in again.
    case invalidGrant(InvalidGrantReason)
    /// Storage failed; nothing was half-written (every change is one transaction).
    case storage(StorageError)
    /// A server key could not be used (corrupt key material, a sealed value that does not open).
    case keyFailure(String)
    /// The grant is bound to a DPoP key (RFC 9449) and the request's proof, if it had one, was
    /// made by another key (`invalid_dpop_proof`); nothing was changed.
    case dpopKeyMismatch
    /// The request's DPoP proof was seen before (`invalid_dpop_proof`); nothing was changed.
    case dpopProofReplayed
    /// A key was offered for two jobs that must never share one: a step-up key that is also the
    /// grant's DPoP key or the widgets' key (`invalid_request`); nothing was changed.
    case stepUpKeyMisuse

    /// Why a grant was refused.
    public enum InvalidGrantReason: String, Sendable, Equatable {
        /// No such token (or not a Tandem refresh token at all).
        case unknownToken
        /// The token expired.
        case expired
        /// The token was already rotated and the grace window has passed: the family is now revoked.
        case reused
        /// A refresh token issued before its grant was bound to a DPoP key was presented again
        /// with another key (or none): the family is now revoked.
        case reusedBeforeBinding
        /// The token's family was revoked earlier.
        case familyRevoked
        /// The token was issued to another client.
        case wrongClient
        /// The authorization code was already redeemed: what it issued is now revoked.
        case codeReused
        /// The code was issued to another client or redirect URI, or the PKCE verifier does not
        /// match its challenge; nothing was changed.
        case codeMismatch
        /// The subject token of a token exchange is not a live user access token.
        case invalidSubjectToken
    }

    /// A one-line message for logs; never contains a token.
    public var description: String {
        switch self {
        case .invalidGrant(let reason): "invalid grant (\(reason.rawValue))"
        case .storage(let error): error.description
        case .keyFailure(let message): "server key failure: \(message)"
        case .dpopKeyMismatch: "the grant is bound to another DPoP key"
        case .dpopProofReplayed: "the DPoP proof was used before"
        case .stepUpKeyMisuse: "the step-up key must be neither the grant's DPoP key nor the widgets' key"
        }
    }
}
