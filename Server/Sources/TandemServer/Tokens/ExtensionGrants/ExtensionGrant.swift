/// A scoped extension grant just issued by token exchange.
///
/// Printing it shows no secret: its ``RefreshToken`` redacts the value.
public struct ExtensionGrant: Sendable, Equatable {
    /// The grant's first refresh token.
    public let refreshToken: RefreshToken
    /// The grant: the parent's user and client, the extension scope and audience, its end.
    public let family: TokenFamily
    /// The ids of the parent's earlier extension grants this one replaced (now revoked).
    public let replacedFamilyIDs: [String]

    /// Creates the result.
    public init(refreshToken: RefreshToken, family: TokenFamily, replacedFamilyIDs: [String]) {
        self.refreshToken = refreshToken
        self.family = family
        self.replacedFamilyIDs = replacedFamilyIDs
    }
}
