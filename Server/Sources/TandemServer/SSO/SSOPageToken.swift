import Crypto
import Foundation
import TandemProtocol

/// The anti-forgery token of the SSO page's requests (a new code, the decision): an HMAC, keyed
/// by the browser session's secret, over the app's client id. Only the browser holding the
/// session cookie (`HttpOnly`) can present it, and only for that app. Nothing is stored.
enum SSOPageToken {
    /// The token for `clientID` in the session whose cookie value is `session`.
    static func token(session: String, clientID: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Data(("tandem sso page\u{0}" + session).utf8)))
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(clientID.utf8), using: key)))
    }

    /// Whether `presented` is the token for `clientID` in `session`, compared in constant time.
    static func isValid(_ presented: String?, session: String, clientID: String) -> Bool {
        guard let presented else { return false }
        return ConstantTime.equals(presented, token(session: session, clientID: clientID))
    }
}
