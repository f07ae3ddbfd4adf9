/// The result of redeeming a refresh token: its successor and the grant it carries.
public struct Redemption: Sendable, Equatable {
    /// The successor refresh token to return to the client.
    public let refreshToken: RefreshToken
    /// The grant: user, client, scope, audience.
    public let family: TokenFamily
    /// `true` when another redemption rotated the token a moment earlier and this one received
    /// that same successor inside the grace window.
    public let isGraceReplay: Bool

    /// Creates a redemption result.
    public init(refreshToken: RefreshToken, family: TokenFamily, isGraceReplay: Bool) {
        self.refreshToken = refreshToken
        self.family = family
        self.isGraceReplay = isGraceReplay
    }
}
