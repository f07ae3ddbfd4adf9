/// An RFC 7662 §2.2 introspection answer. An inactive token is `{"active":false}` and nothing else.
/// A DPoP-bound token says so (RFC 9449 §6.2): `token_type` `DPoP` and `cnf.jkt`, the key whose
/// proofs the resource server must then require.
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
    var cnf: AccessTokenClaims.Confirmation?

    /// The answer for a token that is unknown, expired, rotated, revoked or malformed.
    static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope, username, exp, iat, sub, aud, iss, jti, cnf
        case clientID = "client_id"
        case tokenType = "token_type"
    }
}
