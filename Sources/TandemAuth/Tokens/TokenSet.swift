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
    /// How the access token is presented: `Bearer`, or `DPoP` for a grant bound to a key
    /// (RFC 9449), whose requests carry a proof signed by that key.
    public var tokenType: String

    /// Creates a token set.
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token, if any.
    ///   - expiresAt: When the access token expires.
    ///   - scope: The granted scopes.
    ///   - tokenType: The token type: `Bearer` (the default) or `DPoP` (``dpopTokenType``).
    public init(accessToken: String, refreshToken: String?, expiresAt: Date, scope: String? = nil, tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.tokenType = tokenType
    }

    /// The token type of a grant bound to a DPoP key (RFC 9449 §5).
    public static let dpopTokenType = "DPoP"

    /// Whether the grant is bound to a DPoP key (``tokenType`` `DPoP`): its refreshes and its
    /// resource requests need a proof signed by that key, and a copy of its tokens is useless
    /// without the key.
    public var isDPoPBound: Bool { tokenType.lowercased() == Self.dpopTokenType.lowercased() }

    /// Whether the access token stays valid for at least `minimumValidity` seconds after `now`.
    public func isValid(for minimumValidity: TimeInterval, at now: Date = Date()) -> Bool {
        expiresAt.timeIntervalSince(now) >= minimumValidity
    }

    // MARK: - Coding

    enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, expiresAt, scope, tokenType
    }

    /// Decodes a stored token set; one stored without a `tokenType` is a `Bearer` grant.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "Bearer"
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
