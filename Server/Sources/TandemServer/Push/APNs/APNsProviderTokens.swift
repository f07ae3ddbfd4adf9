import Crypto
import Foundation
import TandemPlatform
import TandemProtocol

/// The provider tokens the server authenticates to APNs with: one ES256 JWT per auth key
/// (`{"alg":"ES256","kid":<key id>}`, `{"iss":<team id>,"iat":<seconds>}`), reused for
/// ``reuseWindow`` and then replaced.
///
/// Apple's "Establishing a token-based connection to APNs"
/// (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns):
/// APNs refuses a token older than one hour (`403 ExpiredProviderToken`) and one replaced more
/// often than every 20 minutes (`429 TooManyProviderTokenUpdates`), so the window is kept
/// between those two: 20 minutes at the least, 55 at the most (the rest is margin for clocks).
///
/// The `iat` of a new token is the start of the current window on a grid shared by every
/// process (multiples of the window since 1970), not the moment it is made: server instances
/// and a server restarted within the window present the same claims, so APNs never sees the
/// key's token change more often than once a window. Only a token APNs called expired is
/// replaced by one issued at the present moment.
actor APNsProviderTokens {
    /// How long one token is used before a new one is made.
    let reuseWindow: Duration

    /// The shortest and longest windows allowed.
    static let allowedWindows = Duration.seconds(20 * 60)...Duration.seconds(55 * 60)

    private struct Issued {
        var token: String
        var issuedAt: Timestamp
    }

    private var issued: [String: Issued] = [:]
    /// How many tokens were made (for the tests and `/metrics`).
    private(set) var minted = 0

    /// A cache whose tokens are used for `reuseWindow` (clamped to ``allowedWindows``).
    init(reuseWindow: Duration = .seconds(50 * 60)) {
        self.reuseWindow = min(max(reuseWindow, Self.allowedWindows.lowerBound), Self.allowedWindows.upperBound)
    }

    /// The token to send with `credentials` at `now`: the current one while it is younger than
    /// the window, else a new one.
    func token(for credentials: APNsCredentials, now: Timestamp) throws(APNsError) -> String {
        let slot = Self.slot(credentials)
        if let current = issued[slot], current.issuedAt.milliseconds <= now.milliseconds,
           now.milliseconds < current.issuedAt.adding(reuseWindow).milliseconds {
            return current.token
        }
        let window = reuseWindow.components.seconds * 1000
        return try mint(credentials, slot: slot, issuedAt: Timestamp(milliseconds: now.milliseconds / window * window))
    }

    /// A new token after APNs answered `403 ExpiredProviderToken` to `rejected` (the machine's
    /// clock and Apple's disagree): unless another send has renewed it already.
    func renew(for credentials: APNsCredentials, rejected: String, now: Timestamp) throws(APNsError) -> String {
        let slot = Self.slot(credentials)
        if let current = issued[slot], current.token != rejected { return current.token }
        return try mint(credentials, slot: slot, issuedAt: now)
    }

    private func mint(_ credentials: APNsCredentials, slot: String, issuedAt: Timestamp) throws(APNsError) -> String {
        let seconds = issuedAt.milliseconds / 1000
        let header = #"{"alg":"ES256","kid":"# + JSONString.quoted(credentials.keyID) + "}"
        let claims = #"{"iss":"# + JSONString.quoted(credentials.teamID) + #","iat":"# + String(seconds) + "}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try credentials.privateKey.signature(for: Array(signingInput.utf8))
        } catch {
            throw .invalidKey("signing a provider token failed: \(error)")
        }
        let token = signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        issued[slot] = Issued(token: token, issuedAt: Timestamp(milliseconds: seconds * 1000))
        minted += 1
        return token
    }

    /// One slot per key: its id, its team and the key itself (a key replaced in the cockpit
    /// under the same id gets a new token at once).
    private static func slot(_ credentials: APNsCredentials) -> String {
        let fingerprint = SHA256.hash(data: credentials.privateKey.publicKey.x963Representation)
        return credentials.teamID + "/" + credentials.keyID + "/" + Hex.encode(fingerprint.prefix(8))
    }
}
