/// The scopes and audiences a Tandem server grants and checks and a client asks for.
///
/// A user's grant (authorization code, SSO passcode) carries ``userDefault`` unless it asks for
/// less, or for ``actions`` too (``userGrantable``); a scoped extension grant (token exchange)
/// carries ``extensionGrant`` only, so widgets can read business data and nothing else: never
/// ``actions``, which the host alone executes. Holding ``actions`` decides nothing by itself:
/// each actionable entity set names the apps and the people who may decide its items.
///
/// ```swift
/// let granted = OAuthScope.parse(claims.scope)
/// let mayRead = granted.contains(OAuthScope.dataRead)
/// ```
public enum OAuthScope: Sendable {
    /// Read business data (`GET /v1/destinations/…`).
    public static let dataRead = "data.read"
    /// Change business data; never granted to extensions.
    public static let dataWrite = "data.write"
    /// Send analytics events (`POST /v1/events`).
    public static let eventsWrite = "events.write"
    /// Receive a refresh token.
    public static let offlineAccess = "offline_access"
    /// Decide items of actionable entity sets (``APIPath/itemAction(_:action:)``)
    /// and register a step-up key; never granted to extensions.
    public static let actions = "actions"

    /// Every scope this server knows.
    public static let all: Set<String> = [dataRead, dataWrite, eventsWrite, offlineAccess, actions]
    /// What an authorization request gets when it names no scope: not ``actions``, which an app
    /// that decides items asks for by name (its configuration's `default_scope` says so).
    public static let userDefault = "data.read data.write events.write offline_access"
    /// Everything a user's grant may carry: ``userDefault`` and ``actions``.
    public static let userGrantable = "data.read data.write events.write offline_access actions"
    /// The read-only scope of a scoped extension grant.
    public static let extensionGrant = "data.read"

    /// The audience of access tokens for the host app.
    public static let apiAudience = "tandem"
    /// The audience of access tokens minted from a scoped extension grant.
    public static let extensionAudience = "tandem-extension"

    /// The scopes in a space-separated scope string.
    public static func parse(_ scope: String) -> Set<String> {
        Set(scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
    }
}
