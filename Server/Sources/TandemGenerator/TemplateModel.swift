/// The values the templates name, each already checked by ``ProjectSpec`` (so none can break
/// out of a Swift string literal, a YAML scalar or a path).
struct TemplateModel {
    let name: String
    let displayName: String
    /// ``displayName`` with `\` and `"` escaped: the same text is a valid Swift string literal's
    /// and a YAML double-quoted scalar's content (control characters were refused).
    let displayNameLiteral: String
    let bundleID: String
    let widgetBundleID: String
    let appGroup: String
    let sharedKeychainGroup: String
    let backgroundTaskIdentifier: String
    let urlScheme: String
    let clientID: String
    let serverURL: String
    let securityMode: String
    let widgetKind: String
    let sdkPath: String
    let teamID: String?
    /// The associated domain of the app's universal SSO links, if the server sends them so.
    let ssoLinkHost: String?
    /// `AppCore` for a new app, `WidgetCore` for a widget added to an existing one.
    let coreName: String
    /// "tandem 0.9.0", for the files' headers.
    let generator: String

    init(spec: ProjectSpec, coreName: String, generator: String) {
        name = spec.name
        displayName = spec.displayName
        displayNameLiteral = Self.escaped(spec.displayName)
        bundleID = spec.bundleID
        widgetBundleID = spec.widgetBundleID
        appGroup = spec.appGroup
        sharedKeychainGroup = spec.sharedKeychainGroup
        backgroundTaskIdentifier = spec.backgroundTaskIdentifier
        urlScheme = spec.urlScheme
        clientID = spec.configuration.clientID
        serverURL = spec.configuration.serverURL.absoluteString
        securityMode = spec.configuration.securityMode.rawValue
        widgetKind = spec.widgetKind
        sdkPath = spec.sdkPath
        teamID = spec.teamID
        ssoLinkHost = spec.configuration.ssoLinkHost
        self.coreName = coreName
        self.generator = generator
    }

    /// `text` with every backslash and double quote escaped by a backslash.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
