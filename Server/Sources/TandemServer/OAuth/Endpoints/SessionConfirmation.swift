import Crypto
import Foundation
import TandemProtocol

/// The anti-forgery token of the one-click confirmation page: an HMAC, keyed by the browser
/// session's secret, over the exact authorization request (client, redirect URI, scope, PKCE
/// challenge and state).
///
/// Only the browser holding the session cookie (`HttpOnly`) can present it, and only for the
/// request it was shown for: a confirmation for one app or one request is worthless for another.
/// Nothing is stored; the token is recomputed when the form comes back.
enum SessionConfirmation {
    /// The token for `request` in the session whose cookie value is `session`.
    static func token(session: String, for request: AuthorizationRequest) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Data(("tandem confirmation\u{0}" + session).utf8)))
        let fields = [request.clientID, request.redirectURI, request.scope, request.codeChallenge, request.state.map { "+" + $0 } ?? "-"]
        // Length-prefixed, so no two different requests give the same message.
        let message = fields.map { "\($0.utf8.count):\($0)" }.joined(separator: ",")
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)))
    }

    /// Whether `presented` is the token for `request` in `session`, compared in constant time.
    static func isValid(_ presented: String, session: String, for request: AuthorizationRequest) -> Bool {
        ConstantTime.equals(presented, token(session: session, for: request))
    }
}
