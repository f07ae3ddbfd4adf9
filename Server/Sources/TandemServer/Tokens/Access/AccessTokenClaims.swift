import JWTKit

/// The claims of a Tandem access token (a JWT signed ES256).
struct AccessTokenClaims: JWTPayload, Equatable {
    /// The issuer: the server's configured issuer URL.
    var iss: IssuerClaim
    /// The subject: the user's id.
    var sub: SubjectClaim
    /// The audience the token is for.
    var aud: AudienceClaim
    /// Expiry.
    var exp: ExpirationClaim
    /// Issue time.
    var iat: IssuedAtClaim
    /// A unique id for this token.
    var jti: IDClaim
    /// The granted scope (space-separated).
    var scope: String
    /// The client the token was issued to.
    var clientID: String
    /// The token family (grant) the token was minted from, so introspection and token exchange
    /// can see whether the grant is still live. A random id, not a secret.
    var familyID: String?
    /// The confirmation (RFC 7800, RFC 9449 §6.1): the thumbprint of the DPoP key the token is
    /// bound to; a resource request must come with a proof made by that key.
    var cnf: Confirmation?

    /// The `cnf` claim of a DPoP-bound token.
    struct Confirmation: Codable, Equatable, Sendable {
        /// The key's RFC 7638 thumbprint.
        var jkt: String
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, scope, cnf
        case clientID = "client_id"
        case familyID = "fid"
    }

    /// Creates a set of claims.
    init(iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, exp: ExpirationClaim, iat: IssuedAtClaim, jti: IDClaim, scope: String, clientID: String, familyID: String? = nil, cnf: Confirmation? = nil) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.jti = jti
        self.scope = scope
        self.clientID = clientID
        self.familyID = familyID
        self.cnf = cnf
    }

    /// Checks expiry; signature checking is the key collection's job.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
