/// A scoped extension grant just issued by token exchange.
///
/// Printing it shows no secret: its ``RefreshToken`` redacts the value.
struct ExtensionGrant: Sendable, Equatable {
    /// The grant's first refresh token.
    let refreshToken: RefreshToken
    /// The grant: the parent's user and client, the extension scope and audience, its end.
    let family: TokenFamily
    /// The ids of the parent's earlier extension grants this one replaced (now revoked).
    let replacedFamilyIDs: [String]

    /// Creates the result.
    init(refreshToken: RefreshToken, family: TokenFamily, replacedFamilyIDs: [String]) {
        self.refreshToken = refreshToken
        self.family = family
        self.replacedFamilyIDs = replacedFamilyIDs
    }
}
