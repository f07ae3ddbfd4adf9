import TandemProtocol

extension TokenResponse {
    /// The JSON text, written directly: this is on every token request, and `JSONEncoder` costs
    /// more than the rest of the response. The field names are the shared `TokenResponse`'s;
    /// keys are sorted and absent fields left out, as `JSONResponse.make` would write them.
    var json: String {
        var text = "{" + Self.accessTokenField + JSONString.quoted(accessToken)
        if let account { text += "," + Self.accountField + JSONString.quoted(account) }
        text += "," + Self.expiresInField + String(expiresIn)
        if let issuedTokenType { text += "," + Self.issuedTokenTypeField + JSONString.quoted(issuedTokenType) }
        if let refreshToken { text += "," + Self.refreshTokenField + JSONString.quoted(refreshToken) }
        if let scope { text += "," + Self.scopeField + JSONString.quoted(scope) }
        text += "," + Self.tokenTypeField + JSONString.quoted(tokenType) + "}"
        return text
    }

    // `"name":` of each field, built once.
    private static let accessTokenField = field(.accessToken)
    private static let accountField = field(.account)
    private static let expiresInField = field(.expiresIn)
    private static let issuedTokenTypeField = field(.issuedTokenType)
    private static let refreshTokenField = field(.refreshToken)
    private static let scopeField = field(.scope)
    private static let tokenTypeField = field(.tokenType)

    private static func field(_ key: CodingKeys) -> String { "\"" + key.rawValue + "\":" }
}
