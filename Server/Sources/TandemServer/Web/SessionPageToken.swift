import Crypto
import Foundation
import TandemProtocol

/// The anti-forgery token of a signed-in page's forms and requests (the SSO page, the cockpit):
/// an HMAC, keyed by the browser session's secret, over what the page is for (such as
/// `sso:‹client id›` or `cockpit`). Only the browser holding the session cookie (`HttpOnly`) can
/// present it, and only for that purpose. Nothing is stored.
enum SessionPageToken {
    /// The token for `purpose` in the session whose cookie value is `session`.
    static func token(session: String, purpose: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Data(("tandem page\u{0}" + session).utf8)))
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: key)))
    }

    /// Whether `presented` is the token for `purpose` in `session`, compared in constant time.
    static func isValid(_ presented: String?, session: String, purpose: String) -> Bool {
        guard let presented else { return false }
        return ConstantTime.equals(presented, token(session: session, purpose: purpose))
    }
}
