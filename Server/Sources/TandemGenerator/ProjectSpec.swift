import Foundation
import TandemAuth
import TandemProtocol

/// What a generated project is for: the app's configuration as its server publishes it, and the
/// names and identifiers the Xcode project uses. Every value is checked here, before any file
/// is written, because each ends up in Swift source, YAML or an entitlement.
///
/// The identifiers the project needs are derived from ``bundleID`` so that they agree with one
/// another in every file:
///
/// | value | for `com.example.sales` |
/// | --- | --- |
/// | ``appGroup`` | `group.com.example.sales` |
/// | ``sharedKeychainGroup`` | `com.example.sales.shared` (prefixed with the team at run time) |
/// | ``backgroundTaskIdentifier`` | `com.example.sales.refresh` |
/// | ``widgetBundleID`` | `com.example.sales.widget` |
///
/// ```swift
/// let spec = try ProjectSpec(name: "Sales", bundleID: "com.example.sales",
///                            configuration: configuration, sdkPath: "/src/tandem")
/// ```
public struct ProjectSpec: Sendable, Equatable {
    /// The app's Swift name and target name, such as `Sales` (the widget target is `SalesWidget`).
    public let name: String
    /// The name people see under the icon, such as "Sales (demo)".
    public let displayName: String
    /// The host app's bundle identifier.
    public let bundleID: String
    /// The app's configuration: its server, client id, URL scheme and security mode.
    public let configuration: ClientConfiguration
    /// The URL scheme sign-in redirects, SSO links and widget taps use.
    public let urlScheme: String
    /// The business widget's kind.
    public let widgetKind: String
    /// The Tandem SDK the generated packages depend on, by path.
    public let sdkPath: String
    /// The Apple developer team, if given (`DEVELOPMENT_TEAM`).
    public let teamID: String?

    /// The App Group both targets join: the shared container.
    public var appGroup: String { "group.\(bundleID)" }
    /// The keychain group both targets share, without the team prefix the system adds.
    public var sharedKeychainGroup: String { "\(bundleID).shared" }
    /// The app-refresh task's identifier (`BGTaskSchedulerPermittedIdentifiers`).
    public var backgroundTaskIdentifier: String { "\(bundleID).refresh" }
    /// The widget extension's bundle identifier.
    public var widgetBundleID: String { "\(bundleID).widget" }

    /// What the generated project will lack, for `tandem generate` to say before anyone opens
    /// it in Xcode; empty when nothing is missing.
    public var warnings: [String] {
        guard teamID == nil else { return [] }
        return [
            "no --team-id: the project has no DEVELOPMENT_TEAM, so Xcode cannot sign it and $(AppIdentifierPrefix), "
                + "the team prefix of the keychain groups, stays empty; choose a team under Signing & Capabilities for both "
                + "targets (or generate again with --team-id). Until then the app stops at launch naming the missing team."
        ]
    }

    /// Checks and gathers a project's values.
    ///
    /// - Parameters:
    ///   - name: A Swift type name: an uppercase letter, then letters and digits (at most 40).
    ///   - displayName: Shown under the icon; defaults to the configuration's app name, then `name`.
    ///   - bundleID: A reverse-DNS identifier such as `com.example.sales`.
    ///   - configuration: The app's configuration; it must name a URL scheme.
    ///   - widgetKind: The widget's kind (`[A-Za-z0-9._-]`, at most 64).
    ///   - sdkPath: An absolute path to the Tandem SDK package.
    ///   - teamID: Ten uppercase letters and digits, if given.
    /// - Throws: ``GeneratorError/invalidValue(name:value:expected:)`` naming the first value
    ///   that cannot be used.
    public init(
        name: String, displayName: String? = nil, bundleID: String, configuration: ClientConfiguration,
        widgetKind: String = "business-data", sdkPath: String, teamID: String? = nil
    ) throws(GeneratorError) {
        guard Self.matches(name, #"^[A-Z][A-Za-z0-9]{0,39}$"#) else {
            throw .invalidValue(name: "the app name", value: name, expected: "an uppercase letter, then letters and digits (at most 40)")
        }
        guard !Self.reservedNames.contains(name) else {
            throw .invalidValue(name: "the app name", value: name, expected: "a name that is not a module the project imports")
        }
        guard bundleID.count <= 120, Self.matches(bundleID, #"^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+$"#) else {
            throw .invalidValue(name: "the bundle identifier", value: bundleID, expected: "reverse-DNS, such as com.example.sales")
        }
        guard let scheme = configuration.urlScheme else {
            throw .invalidValue(
                name: "the URL scheme", value: "", expected: "the app needs one for sign-in, SSO links and widget taps: set it on the server")
        }
        guard AppIdentifierRules.isValidURLScheme(scheme) else {
            throw .invalidValue(
                name: "the URL scheme", value: scheme, expected: "a lowercase letter, then lowercase letters, digits, + . -, not a web scheme such as https")
        }
        // The shared rule, and the generator's own: the id goes into Swift as a plain literal.
        guard AppIdentifierRules.isValidClientID(configuration.clientID), Self.matches(configuration.clientID, #"^[A-Za-z0-9._~-]{1,128}$"#) else {
            throw .invalidValue(name: "the client id", value: configuration.clientID, expected: "letters, digits and . _ ~ - (at most 128)")
        }
        do {
            _ = try configuration.validated()
        } catch {
            throw .invalidValue(name: "the configuration", value: configuration.serverURL.absoluteString, expected: "\(error)")
        }
        guard Self.isPlainText(configuration.serverURL.absoluteString, limit: 200) else {
            throw .invalidValue(name: "the server URL", value: configuration.serverURL.absoluteString, expected: "a URL of at most 200 characters")
        }
        guard Self.matches(widgetKind, #"^[A-Za-z0-9._-]{1,64}$"#) else {
            throw .invalidValue(name: "the widget kind", value: widgetKind, expected: "letters, digits and . _ - (at most 64)")
        }
        guard sdkPath.hasPrefix("/"), Self.isPlainText(sdkPath, limit: 500) else {
            throw .invalidValue(name: "the SDK path", value: sdkPath, expected: "an absolute path without quotes or backslashes")
        }
        if let host = configuration.ssoLinkHost, !AppIdentifierRules.isValidLinkHost(host) {
            throw .invalidValue(name: "the SSO link host", value: host, expected: "a lowercase domain name, such as links.example.com")
        }
        if let teamID, !Self.matches(teamID, #"^[A-Z0-9]{10}$"#) {
            throw .invalidValue(name: "the team id", value: teamID, expected: "ten uppercase letters and digits")
        }
        let shown = displayName ?? configuration.name ?? name
        guard !shown.isEmpty, shown.count <= 64, !shown.unicodeScalars.contains(where: \.hidesText) else {
            throw .invalidValue(
                name: "the display name", value: shown, expected: "1 to 64 characters, no control, line-break or bidirectional-override characters")
        }
        self.name = name
        self.displayName = shown
        self.bundleID = bundleID
        self.configuration = configuration
        self.urlScheme = scheme
        self.widgetKind = widgetKind
        self.sdkPath = sdkPath
        self.teamID = teamID
    }

    /// A Swift name for an app called `appName` ("sales demo" → `SalesDemo`); `TandemApp` when
    /// nothing usable is left.
    public static func name(derivedFrom appName: String) -> String {
        let words = appName.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        while let first = name.first, !first.isLetter { name.removeFirst() }
        name = String(name.prefix(40))
        guard !name.isEmpty, !reservedNames.contains(name) else { return "MyApp" }
        return name
    }

    /// Names the generated project's own modules or its imports use.
    static let reservedNames: Set<String> = [
        "AppCore", "WidgetCore", "App", "Widget", "Tandem", "TandemProtocol", "TandemVault", "TandemSharedContainer", "TandemAuth",
        "TandemURLSession", "TandemWidgets", "TandemHost", "TandemTestSupport", "Foundation", "SwiftUI", "WidgetKit", "UIKit", "AppIntents", "Logging", "Crypto", "Self", "Type",
    ]

    /// Whether `pattern` matches the whole of `value`. Not only a match of `^…$`: ICU's `$` also
    /// matches before a final line break, so `"sales\n"` would pass a `^[a-z]+$` check.
    static func matches(_ value: String, _ pattern: String) -> Bool {
        value.range(of: pattern, options: .regularExpression) == value.startIndex..<value.endIndex
    }


    /// At most `limit` characters, none of them a quote, a backslash or a control character.
    static func isPlainText(_ value: String, limit: Int) -> Bool {
        value.count <= limit
            && !value.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.properties.generalCategory == .control }
    }
}
