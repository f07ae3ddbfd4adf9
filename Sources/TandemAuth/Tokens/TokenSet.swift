#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The tokens of one grant: what the token endpoint issued, with the expiry made absolute.
///
/// Its descriptions and mirror never show the tokens, so a `print`, a log line or a `dump` of a
/// `TokenSet` leaks nothing.
///
/// ```swift
/// if tokens.isValid(for: 60) { send(with: tokens.accessToken) }
/// ```
public struct TokenSet: Codable, Sendable, Equatable {
    /// The bearer token for API requests.
    public var accessToken: String
    /// The token that renews the access token; `nil` when the grant has none.
    public var refreshToken: String?
    /// When the access token stops being accepted.
    public var expiresAt: Date
    /// The granted scopes, space-separated, when the server said.
    public var scope: String?
    /// The token type, `Bearer`.
    public var tokenType: String

    /// Creates a token set.
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token, if any.
    ///   - expiresAt: When the access token expires.
    ///   - scope: The granted scopes.
    ///   - tokenType: The token type; `Bearer` by default.
    public init(accessToken: String, refreshToken: String?, expiresAt: Date, scope: String? = nil, tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.tokenType = tokenType
    }

    /// Whether the access token stays valid for at least `minimumValidity` seconds after `now`.
    public func isValid(for minimumValidity: TimeInterval, at now: Date = Date()) -> Bool {
        expiresAt.timeIntervalSince(now) >= minimumValidity
    }
}

extension TokenSet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The expiry and scope; never a token.
    public var description: String {
        "TokenSet(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), "
            + "expiresAt: \(expiresAt), scope: \(scope ?? "nil"), tokenType: \(tokenType))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the tokens, so `dump` does not print them either.
    public var customMirror: Mirror {
        Mirror(self, children: ["expiresAt": expiresAt, "scope": scope as Any, "tokenType": tokenType], displayStyle: .struct)
    }
}
