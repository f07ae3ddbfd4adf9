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

    /// Why a grant was refused.
    public enum InvalidGrantReason: String, Sendable, Equatable {
        /// No such token (or not a Tandem refresh token at all).
        case unknownToken
        /// The token expired.
        case expired
        /// The token was already rotated and the grace window has passed: the family is now revoked.
        case reused
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
        }
    }
}
