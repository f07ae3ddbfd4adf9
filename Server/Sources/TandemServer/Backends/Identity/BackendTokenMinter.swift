import Crypto
import Foundation
import Logging
import TandemBackends
import TandemProtocol

/// Mints the short-lived token that carries the signed-in user to a customer's backend
/// (principal propagation): what the server's token exchange (RFC 8693) of the user's access
/// token for the backend's audience issues. A JWT access token as RFC 9068 profiles it
/// (`typ` `at+jwt`), signed ES256 with the key the server publishes at
/// `/.well-known/jwks.json`, so a backend validates it with a stock JWT library:
///
/// ```json
/// {"act":{"client_id":"demo-app","sub":"demo-app:widgets"},"aud":"https://erp.example.com",
///  "azp":"demo-app","client_id":"demo-app","exp":1894061100,"iat":1894060800,
///  "iss":"https://tandem.example.com","jti":"…","preferred_username":"alice","sub":"<user id>"}
/// ```
///
/// `act` is there only when the widgets' grant asked. The token lives 5 minutes and is made
/// per call; it is never stored or logged.
///
/// ```swift
/// let minter = BackendTokenMinter(signingKey: keys.signingKey, issuer: configuration.issuer)
/// let token = try minter.mint(for: principal, audience: "https://erp.example.com", now: Timestamp(clock.now))
/// ```
struct BackendTokenMinter: Sendable {
    /// The `iss` claim: the server's issuer URL, as its discovery document says.
    let issuer: String
    /// How long a token lives (RFC 8693 leaves it to the issuer; short, as it is made per call).
    let lifetime: Duration
    /// The `kid` in each token's header: the JWKS's key.
    let keyID: String

    /// Opens a destination's technical user for the calls that carry one; nil: no destination
    /// may use `technical-user` (its calls fail as `backend_error`).
    let credentials: BackendCredentials?

    private let signingKey: P256.Signing.PrivateKey
    private let encodedHeader: String

    /// The longest audience accepted, in bytes.
    static let maximumAudienceLength = 512

    /// A minter signing with the server's `signingKey` as `issuer`, opening technical users
    /// with `credentials`.
    init(signingKey: P256.Signing.PrivateKey, issuer: String, lifetime: Duration = .seconds(300), credentials: BackendCredentials? = nil) {
        self.issuer = issuer
        self.lifetime = lifetime
        self.credentials = credentials
        self.signingKey = signingKey
        keyID = AccessTokenSigner.keyID(of: signingKey.publicKey)
        encodedHeader = Base64URL.encode(Array("{\"alg\":\"ES256\",\"kid\":\(JSONString.quoted(keyID)),\"typ\":\"at+jwt\"}".utf8))
    }

    /// A token for `principal` to present to the backend known as `audience`, issued at `now`.
    ///
    /// - Throws: ``BackendIdentityError/invalidAudience(_:)`` for an empty, overlong or
    ///   control-character audience; ``BackendIdentityError/signingFailed(_:)``.
    func mint(for principal: BackendPrincipal, audience: String, now: Timestamp) throws(BackendIdentityError) -> String {
        try Self.check(audience: audience)
        let issuedAt = now.milliseconds / 1000
        let expires = issuedAt + Int64(lifetime.components.seconds)
        var payload = "{"
        if principal.viaWidget {
            payload += "\"act\":{\"client_id\":" + JSONString.quoted(principal.clientID)
            payload += ",\"sub\":" + JSONString.quoted(principal.clientID + ":widgets") + "},"
        }
        payload += "\"aud\":" + JSONString.quoted(audience)
        payload += ",\"azp\":" + JSONString.quoted(principal.clientID)
        payload += ",\"client_id\":" + JSONString.quoted(principal.clientID)
        payload += ",\"exp\":" + String(expires)
        payload += ",\"iat\":" + String(issuedAt)
        payload += ",\"iss\":" + JSONString.quoted(issuer)
        payload += ",\"jti\":" + JSONString.quoted(AccessTokenSigner.randomUUID())
        payload += ",\"preferred_username\":" + JSONString.quoted(principal.username)
        payload += ",\"sub\":" + JSONString.quoted(principal.userID) + "}"
        let signingInput = encodedHeader + "." + Base64URL.encode(Array(payload.utf8))
        do {
            let signature = try signingKey.signature(for: Array(signingInput.utf8))
            return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    /// The headers a call to `destination` carries for `principal`: `Authorization: Bearer
    /// <token>` for the destination's audience when it is read with the user's token;
    /// `Authorization: Basic …` of its technical user and the token in its user header for
    /// `technical-user`; none for public data (or no principal).
    ///
    /// - Throws: ``HTTPError`` `backend_error` when no token can be made or the destination has
    ///   no technical user (logged, never a secret); `503` when the technical user cannot be read.
    func headers(
        for principal: BackendPrincipal?, at destination: BackendDestination, now: Timestamp, logger: Logger
    ) async throws(HTTPError) -> [(name: String, value: String)] {
        switch destination.authentication {
        case .none:
            return []
        case .userToken(let audience):
            guard let principal else { return [] }
            return [("Authorization", "Bearer " + (try token(for: principal, audience: audience, at: destination, now: now, logger: logger)))]
        case .technicalUser(let audience, let userHeader):
            let user: BackendTechnicalUser?
            do {
                user = try await credentials?.technicalUser(of: destination.name)
            } catch {
                logger.error("a technical user could not be read", metadata: ["destination": "\(destination.name)", "error": "\(error)"])
                throw HTTPError.unavailable
            }
            guard let user else {
                logger.error("a technical-user destination has no technical user", metadata: ["destination": "\(destination.name)"])
                throw HTTPError(
                    .backendError, "\(destination.name) has no technical user yet (tandem admin destination set-credential --name \(destination.name))")
            }
            var headers = [(name: "Authorization", value: user.basicAuthorization)]
            if let principal {
                headers.append((userHeader, try token(for: principal, audience: audience, at: destination, now: now, logger: logger)))
            }
            return headers
        }
    }

    /// ``mint(for:audience:now:)`` for a call to `destination`, its failure logged (never the
    /// token) and answered `backend_error`.
    private func token(
        for principal: BackendPrincipal, audience: String, at destination: BackendDestination, now: Timestamp, logger: Logger
    ) throws(HTTPError) -> String {
        do {
            return try mint(for: principal, audience: audience, now: now)
        } catch {
            logger.error("minting a backend token failed", metadata: ["destination": "\(destination.name)", "error": "\(error)"])
            throw HTTPError(.backendError, "no token could be made for \(destination.name)")
        }
    }

    /// Refuses an audience that is empty, longer than ``maximumAudienceLength`` bytes, or holds
    /// control characters or spaces (an audience is a URI or an identifier).
    static func check(audience: String) throws(BackendIdentityError) {
        guard !audience.isEmpty else { throw .invalidAudience("the audience is empty") }
        guard audience.utf8.count <= maximumAudienceLength else {
            throw .invalidAudience("the audience is longer than \(maximumAudienceLength) bytes")
        }
        guard audience.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw .invalidAudience("the audience holds a space or a control character")
        }
    }
}
