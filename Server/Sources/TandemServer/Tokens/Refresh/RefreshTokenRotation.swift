import Foundation

/// The inputs of one redemption, prepared by ``RefreshTokenService`` before it touches storage:
/// the successor already generated, hashed and (inside a grace window) sealed.
public struct RefreshTokenRotation: Sendable {
    /// The hash of the token presented.
    public var presentedHash: String
    /// The client that presented it; a token only redeems for its own client.
    public var clientID: String
    /// The hash of the successor token to install if this redemption wins.
    public var successorHash: String
    /// The successor sealed for losers inside the grace window; `nil` when the window is zero.
    public var sealedSuccessor: Data?
    /// When the sealed successor must be erased.
    public var sealedUntil: Timestamp
    /// When the successor expires.
    public var successorExpiresAt: Timestamp
    /// The time of the redemption.
    public var now: Timestamp

    /// Creates a rotation request.
    public init(
        presentedHash: String, clientID: String, successorHash: String, sealedSuccessor: Data?,
        sealedUntil: Timestamp, successorExpiresAt: Timestamp, now: Timestamp
    ) {
        self.presentedHash = presentedHash
        self.clientID = clientID
        self.successorHash = successorHash
        self.sealedSuccessor = sealedSuccessor
        self.sealedUntil = sealedUntil
        self.successorExpiresAt = successorExpiresAt
        self.now = now
    }
}
