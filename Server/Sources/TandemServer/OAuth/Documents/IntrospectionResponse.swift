/// An RFC 7662 §2.2 introspection answer. An inactive token is `{"active":false}` and nothing else.
struct IntrospectionResponse: Encodable, Sendable {
    var active: Bool
    var scope: String?
    var clientID: String?
    var username: String?
    var tokenType: String?
    var exp: Int64?
    var iat: Int64?
    var sub: String?
    var aud: String?
    var iss: String?
    var jti: String?

    /// The answer for a token that is unknown, expired, rotated, revoked or malformed.
    static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope, username, exp, iat, sub, aud, iss, jti
        case clientID = "client_id"
        case tokenType = "token_type"
    }
}
