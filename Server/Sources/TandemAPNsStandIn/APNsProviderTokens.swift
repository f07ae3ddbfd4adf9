import Crypto
import Foundation
import TandemProtocol

/// The stand-in's check of provider tokens (the `authorization: bearer <JWT>` header), as described
/// in Apple's "Establishing a token-based connection to APNs"
/// (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns):
///
/// - the header names `alg` ES256 and a known `kid`; the claims carry `iss` (the key's team id) and
///   `iat` (whole seconds since 1970); the signature is the raw r‖s ES256 signature, base64url;
/// - "APNs rejects any request whose token contains a timestamp that is more than one hour old";
/// - "Refresh your token no more than once every 20 minutes": a new token (another `iat`) for the
///   same key within 20 minutes of the previous new one is refused with 429
///   `TooManyProviderTokenUpdates`, and the previous token stays the current one.
///
/// Not thread-safe by itself: ``APNsStandIn`` calls it under its lock.
struct APNsProviderTokens {
    /// How old an `iat` may be.
    static let lifetime: TimeInterval = 60 * 60
    /// How soon after a new token another new one is refused.
    static let updateInterval: TimeInterval = 20 * 60

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    private struct Claims: Decodable {
        let iss: String?
        let iat: Int64?
    }

    private struct CurrentToken {
        let issuedAt: Int64
        let adoptedAt: Date
    }

    private let keys: [String: APNsStandInProviderKey]
    private var current: [String: CurrentToken] = [:]

    init(keys: [APNsStandInProviderKey]) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// `nil` when the `authorization` header carries a valid, current provider token; otherwise
    /// the status and reason APNs would answer.
    mutating func check(authorization: String?, now: Date) -> (status: Int, reason: String)? {
        guard let authorization, !authorization.isEmpty else { return (403, "MissingProviderToken") }
        let scheme = "bearer "
        guard authorization.count > scheme.count, authorization.prefix(scheme.count).lowercased() == scheme else {
            return (403, "MissingProviderToken")
        }
        let token = authorization.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let invalid = (status: 403, reason: "InvalidProviderToken")
        guard parts.count == 3,
            let headerData = Base64URL.decode(String(parts[0])),
            let claimsData = Base64URL.decode(String(parts[1])),
            let signatureData = Base64URL.decode(String(parts[2])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData),
            header.alg == "ES256", let keyID = header.kid, let key = keys[keyID],
            claims.iss == key.teamID, let issuedAt = claims.iat,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return invalid }
        if now.timeIntervalSince1970 - Double(issuedAt) > Self.lifetime { return (403, "ExpiredProviderToken") }
        if let previous = current[keyID], previous.issuedAt != issuedAt {
            guard now.timeIntervalSince(previous.adoptedAt) >= Self.updateInterval else {
                return (429, "TooManyProviderTokenUpdates")
            }
        }
        if current[keyID]?.issuedAt != issuedAt { current[keyID] = CurrentToken(issuedAt: issuedAt, adoptedAt: now) }
        return nil
    }
}
