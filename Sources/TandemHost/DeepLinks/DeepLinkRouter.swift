import Foundation
import TandemProtocol
import TandemWidgetModel

/// Parses any URL the host app is asked to open into a typed `DeepLinkRoute`, and refuses
/// everything else with a `DeepLinkError`.
///
/// It reads the URL's raw text itself rather than trusting a URL parser's decoding: a link
/// from a widget, a QR code or another app is untrusted input. It accepts exactly three forms:
/// - `scheme://widget/<kind>?family=…&config=…[&target=…][&utm_*=…]` (built by `WidgetLink`),
/// - `scheme://onboard?config=…` (cross-context SSO),
/// - the sign-in redirect URI with `code` and `state`.
///
/// ```swift
/// let router = DeepLinkRouter(scheme: "acme")
/// switch try router.route(url) {
/// case .widgetTap(let kind, let family, let configuration, let target, _): …
/// case .ssoOnboarding(let payload): …
/// case .signInCallback(let code, let state): …
/// }
/// ```
public struct DeepLinkRouter: Sendable {
    /// The app's URL scheme, compared without regard to case.
    public let scheme: String
    /// The host of the sign-in redirect URI (`scheme://<host><path>`).
    public let redirectHost: String
    /// The path of the sign-in redirect URI, e.g. `/callback`.
    public let redirectPath: String
    /// The size limits enforced.
    public let limits: DeepLinkLimits

    /// A router for links of `scheme`.
    ///
    /// - Parameters:
    ///   - scheme: The app's URL scheme.
    ///   - redirectHost: The sign-in redirect URI's host; default `oauth`.
    ///   - redirectPath: The sign-in redirect URI's path; default `/callback`.
    ///   - limits: Size limits; see `DeepLinkLimits` for the defaults.
    public init(scheme: String, redirectHost: String = "oauth", redirectPath: String = "/callback", limits: DeepLinkLimits = DeepLinkLimits()) {
        self.scheme = scheme
        self.redirectHost = redirectHost.lowercased()
        self.redirectPath = redirectPath
        self.limits = limits
    }

    /// The route of `url`.
    ///
    /// - Throws: `DeepLinkError` saying why the URL is not one of this app's links.
    public func route(_ url: URL) throws(DeepLinkError) -> DeepLinkRoute {
        try route(string: url.absoluteString)
    }

    /// The route of the URL spelled `text`; for URLs that arrive as text (a QR code, a log).
    ///
    /// - Throws: `DeepLinkError` saying why the text is not one of this app's links.
    public func route(string text: String) throws(DeepLinkError) -> DeepLinkRoute {
        let parts = try split(text)
        switch (parts.host, parts.path) {
        case ("widget", let path) where path.hasPrefix("/"):
            return try widgetTap(kind: String(path.dropFirst()), query: parts.query)
        case ("onboard", ""), ("onboard", "/"):
            let query = try parameters(parts.query, allowed: ["config"], required: ["config"])
            guard let payload = query["config"], Base64URL.decode(payload) != nil else { throw .undecodableConfiguration }
            return .ssoOnboarding(configuration: payload)
        case (redirectHost, redirectPath):
            let query = try parameters(parts.query, allowed: ["code", "state"], required: ["code", "state"])
            return .signInCallback(code: query["code"] ?? "", state: query["state"] ?? "")
        default:
            throw .unknownRoute(String((parts.host + parts.path).prefix(64)))
        }
    }

    /// The URL a router of this scheme routes to `route`: the inverse of ``route(_:)``.
    ///
    /// - Throws: `DeepLinkError` if a value cannot be carried (see `WidgetLink/url()`).
    public func url(for route: DeepLinkRoute) throws(DeepLinkError) -> URL {
        switch route {
        case .widgetTap(let kind, let family, let configuration, let target, let campaign):
            return try WidgetLink(scheme: scheme, kind: kind, family: family, payload: configuration, target: target, campaign: campaign).url()
        case .ssoOnboarding(let payload):
            guard Base64URL.decode(payload) != nil else { throw .undecodableConfiguration }
            return try DeepLinkQuery.url(scheme: scheme, host: "onboard", path: "", parameters: [("config", payload)])
        case .signInCallback(let code, let state):
            for (name, value) in [("code", code), ("state", state)] {
                try DeepLinkQuery.validate(value, name: name)
                if value.isEmpty { throw .missingParameter(name) }
            }
            return try DeepLinkQuery.url(scheme: scheme, host: redirectHost, path: redirectPath, parameters: [("code", code), ("state", state)])
        }
    }

    // MARK: - Parsing

    private func widgetTap(kind: String, query rawQuery: String?) throws(DeepLinkError) -> DeepLinkRoute {
        guard DeepLinkQuery.isValidKind(kind) else { throw .unknownRoute("widget/" + kind.prefix(64)) }
        let allowed = WidgetCampaign.parameterNames.union(["family", "config", "target"])
        let query = try parameters(rawQuery, allowed: allowed, required: ["family", "config"])
        guard let family = query["family"].flatMap(WidgetFamily.init(rawValue:)) else { throw .invalidParameterValue("family") }
        guard let json = query["config"].flatMap(Base64URL.decode) else { throw .undecodableConfiguration }
        let configuration = try WidgetConfigurationPayload(json: json)
        return .widgetTap(kind: kind, family: family, configuration: configuration, target: query["target"], campaign: WidgetCampaign(query: query))
    }

    /// The scheme-checked host (lowercased), path and raw query of `text`.
    private func split(_ text: String) throws(DeepLinkError) -> (host: String, path: String, query: String?) {
        guard text.utf8.count <= limits.maximumURLLength else { throw .urlTooLong(limit: limits.maximumURLLength) }
        guard text.utf8.allSatisfy(DeepLinkQuery.urlBytes.contains) else { throw .invalidCharacter }
        guard let separator = text.range(of: "://") else { throw .malformedURL }
        let foundScheme = String(text[..<separator.lowerBound])
        guard DeepLinkQuery.isValidScheme(foundScheme) else { throw .malformedURL }
        guard foundScheme.lowercased() == scheme.lowercased() else {
            throw .wrongScheme(expected: scheme, found: String(foundScheme.prefix(32)))
        }
        let rest = text[separator.upperBound...]
        guard !rest.contains("#") else { throw .unknownRoute("fragment") }
        let beforeQuery = rest.prefix { $0 != "?" }
        let query = beforeQuery.endIndex < rest.endIndex ? String(rest[rest.index(after: beforeQuery.endIndex)...]) : nil
        let host = beforeQuery.prefix { $0 != "/" }
        guard !host.contains("@"), !host.contains(":") else { throw .unknownRoute("authority") }
        return (host.lowercased(), String(beforeQuery[host.endIndex...]), query)
    }

    /// The decoded parameters of `rawQuery`, each allowed, present once, within its limit.
    private func parameters(_ rawQuery: String?, allowed: Set<String>, required: [String]) throws(DeepLinkError) -> [String: String] {
        var values: [String: String] = [:]
        let items = rawQuery.map { $0.isEmpty ? [] : $0.split(separator: "&", omittingEmptySubsequences: false) } ?? []
        guard items.count <= limits.maximumParameterCount else {
            throw .oversizedParameter("query", limit: limits.maximumParameterCount)
        }
        for item in items {
            guard let equals = item.firstIndex(of: "=") else { throw .malformedURL }
            let name = String(item[..<equals])
            let raw = String(item[item.index(after: equals)...])
            guard allowed.contains(name) else { throw .unexpectedParameter(String(name.prefix(32))) }
            guard values[name] == nil else { throw .duplicateParameter(name) }
            let limit = name == "config" ? limits.maximumConfigurationLength : limits.maximumValueLength
            let value = try DeepLinkQuery.decode(raw, name: name)
            guard value.utf8.count <= limit else { throw .oversizedParameter(name, limit: limit) }
            guard !value.isEmpty else { throw .missingParameter(name) }
            values[name] = value
        }
        for name in required where values[name] == nil { throw .missingParameter(name) }
        return values
    }
}
