/// The result of redeeming a refresh token: its successor and the grant it carries.
struct Redemption: Sendable, Equatable {
    /// The successor refresh token to return to the client.
    let refreshToken: RefreshToken
    /// The grant: user, client, scope, audience.
    let family: TokenFamily
    /// `true` when another redemption rotated the token a moment earlier and this one received
    /// that same successor inside the grace window.
    let isGraceReplay: Bool

    /// Creates a redemption result.
    init(refreshToken: RefreshToken, family: TokenFamily, isGraceReplay: Bool) {
        self.refreshToken = refreshToken
        self.family = family
        self.isGraceReplay = isGraceReplay
    }
}
