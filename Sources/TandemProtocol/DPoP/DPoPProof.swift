import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A DPoP proof (RFC 9449 §4): a JWT of type `dpop+jwt`, signed with ES256 by a key the client
/// holds, whose public half is in the header. It proves that the sender of a request holds the
/// key that its tokens are bound to (`cnf.jkt`), so a stolen token is useless without the key.
///
/// The client makes one per request; the server reads it and checks it against the request:
///
/// ```swift
/// let proof = try DPoPProof.make(signer: key, method: "POST", url: tokenURL, issuedAt: now)  // the app
/// let read = try DPoPProof(parsing: header)                                                  // the server
/// try read.check(method: "POST", url: tokenURL, now: now)
/// // read.publicKey.thumbprint is the jkt to bind (or compare with the token's)
/// ```
///
/// Written once here, so the proofs the SDK signs are the ones the server accepts. Replay of a
/// `jti` and server nonces are the server's to track.
public struct DPoPProof: Sendable, Equatable {
    /// `typ` of a proof.
    public static let type = "dpop+jwt"
    /// The only algorithm: ES256 (P-256), which the Secure Enclave signs with.
    public static let algorithm = "ES256"
    /// The longest proof read, in bytes (a proof is about 500).
    public static let maximumLength = 4096
    /// The HTTP header that carries a proof.
    public static let headerName = "DPoP"
    /// The header a server sends its nonce in.
    public static let nonceHeaderName = "DPoP-Nonce"
    /// The header of a token exchange (RFC 8693) that carries a second proof, by the key the new
    /// grant is to be bound to: the `DPoP` header proves the subject token's key (a use of that
    /// token, RFC 9449 §7), this one proves the widgets' key, which the host holds too. Tandem's
    /// own: RFC 9449 names one proof per request.
    public static let bindHeaderName = "Tandem-DPoP-Bind"

    /// The key that signed it.
    public let publicKey: DPoPPublicKey
    /// Its unique id.
    public let jti: String
    /// `htm`: the request's method.
    public let method: String
    /// `htu`: the request's URL, without query and fragment.
    public let url: String
    /// `iat`.
    public let issuedAt: Date
    /// `ath`: the hash of the access token sent with it (resource requests only).
    public let accessTokenHash: String?
    /// The server's nonce, when it asked for one.
    public let nonce: String?

    // MARK: - Making

    /// A signed proof for a request, as the `DPoP` header's value.
    ///
    /// - Parameters:
    ///   - method: The HTTP method (`htm`).
    ///   - url: The request's URL; its query and fragment are left out (`htu`).
    ///   - issuedAt: Now (`iat`, whole seconds).
    ///   - accessToken: The access token the request sends, for `ath` (resource requests).
    ///   - nonce: The server's last `DPoP-Nonce`, if it sent one.
    /// - Throws: What `signer` throws.
    public static func make(
        signer: some DPoPSigner, method: String, url: URL, issuedAt: Date, accessToken: String? = nil, nonce: String? = nil
    ) throws -> String {
        var claims: [String: JSONValue] = [
            "jti": .string(CompactJWS.randomID()),
            "htm": .string(method),
            "htu": .string(normalizedURL(url.absoluteString) ?? url.absoluteString),
            "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
        ]
        if let accessToken { claims["ath"] = .string(accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return try CompactJWS.sign(type: type, claims: claims, signer: signer)
    }

    /// `ath` for `accessToken`: base64url(SHA-256(ASCII(token))) (§4.2).
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
    }

    // MARK: - Reading

    /// Reads a proof and verifies its signature under the key in its header.
    ///
    /// - Throws: ``DPoPError`` for anything but a compact ES256 JWS of type `dpop+jwt` with a
    ///   P-256 public key, the claims `jti`, `htm`, `htu`, `iat` (and optionally `ath`,
    ///   `nonce`) of the right types, and a signature that verifies.
    public init(parsing compact: String) throws(DPoPError) {
        let (key, claims) = try CompactJWS.verified(compact, type: Self.type, maximumLength: Self.maximumLength)
        guard case .string(let jti) = claims["jti"], !jti.isEmpty, jti.utf8.count <= 256,
            case .string(let method) = claims["htm"], case .string(let url) = claims["htu"],
            case .number(let iat) = claims["iat"], iat.isFinite, iat >= 0
        else { throw .malformed("jti, htm, htu and iat are required") }
        publicKey = key
        self.jti = jti
        self.method = method
        self.url = url
        issuedAt = Date(timeIntervalSince1970: iat)
        accessTokenHash = try CompactJWS.optionalString(claims["ath"], name: "ath")
        nonce = try CompactJWS.optionalString(claims["nonce"], name: "nonce")
    }

    /// Checks the proof against the request it came with (§4.3).
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - url: The request's URL as the server is reached by its clients (scheme and host of
    ///     the issuer); query and fragment are ignored.
    ///   - now: The server's time.
    ///   - maximumAge: How long ago `iat` may be.
    ///   - futureSkew: How far ahead of `now` `iat` may be (a phone's clock runs ahead).
    ///   - accessToken: The access token sent with it, for a resource request: `ath` must be its hash.
    ///   - nonce: The nonce the server requires now, and whether a given nonce is still accepted.
    /// - Throws: ``DPoPError`` naming the first check that failed.
    public func check(
        method: String, url: String, now: Date, maximumAge: Duration = .seconds(300), futureSkew: Duration = .seconds(60),
        accessToken: String? = nil, nonce: (current: String, accepts: (String) -> Bool)? = nil
    ) throws(DPoPError) {
        guard self.method == method else { throw .methodMismatch }
        guard let expected = Self.normalizedURL(url), let actual = Self.normalizedURL(self.url), expected == actual else { throw .urlMismatch }
        let age = now.timeIntervalSince(issuedAt)
        guard age <= Self.seconds(maximumAge), -age <= Self.seconds(futureSkew) else { throw .issuedAtOutOfWindow }
        if let accessToken {
            guard let accessTokenHash, ConstantTime.equals(accessTokenHash, Self.accessTokenHash(accessToken)) else {
                throw .accessTokenHashMismatch
            }
        }
        if let nonce {
            guard let sent = self.nonce, nonce.accepts(sent) else { throw .nonceRequired(nonce.current) }
        }
    }

    /// `url` as `htu` is compared (RFC 9449 §4.3, RFC 3986 §6.2.2–6.2.3): scheme and host
    /// lowercased, the scheme's default port left out, an empty path as `/`, no query or
    /// fragment; `nil` for anything but an absolute http(s) URL.
    public static func normalizedURL(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return "\(scheme)://\(host)\(port)\(path)"
    }

    // MARK: - Internals

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
