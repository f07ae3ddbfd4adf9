import ArgumentParser
import Foundation
import TandemAuth
import TandemGenerator
import TandemServer
import TandemURLSession

/// What `generate app` and `generate widget` share: where the app's configuration comes from
/// (its server, or the same values as options with `--offline`) and the project's names.
struct GenerateOptions: ParsableArguments {
    @Option(name: .long, help: "The server the app signs in to; its public configuration for --client-id is read from it.")
    var server: String

    @Option(name: .long, help: "The app's client id on that server.")
    var clientID: String

    @Flag(name: .long, help: "Do not ask the server: take --scheme, --security-mode and --redirect-uri from the options.")
    var offline = false

    @Option(name: .long, help: "With --offline: the app's URL scheme.")
    var scheme: String?

    @Option(name: .long, help: "With --offline: oauth or apiKey (default oauth).")
    var securityMode: String?

    @Option(name: .long, help: "With --offline: the redirect URI (default <scheme>://oauth/callback).")
    var redirectURI: String?

    @Option(name: .long, help: "The app's Swift name and target name, such as Sales (default: from the app's name on the server).")
    var name: String?

    @Option(name: .long, help: "The host app's bundle identifier, such as com.example.sales.")
    var bundleID: String

    @Option(name: .long, help: "The widget's kind.")
    var widgetKind = "business-data"

    @Option(name: .long, help: "The Tandem SDK the generated packages depend on (default: the SDK this tandem was built from).")
    var sdkPath: String?

    @Option(name: .long, help: "Your Apple developer team id (DEVELOPMENT_TEAM), if you want it in the project.")
    var teamID: String?

    /// The configuration, from the server or from the options.
    func configuration() async throws -> ClientConfiguration {
        guard let serverURL = URL(string: server) else { throw ValidationError("--server \(server.debugDescription) is not a URL") }
        guard offline else {
            guard scheme == nil, securityMode == nil, redirectURI == nil else {
                throw ValidationError("--scheme, --security-mode and --redirect-uri come from the server; add --offline to give them yourself")
            }
            let provider = ServerConfigurationProvider(
                serverURL: serverURL, clientID: clientID, client: HTTPClient(transport: URLSessionTransport()),
                allowedServers: try ServerAllowlist([serverURL]))
            return try await provider.configuration()
        }
        guard let scheme else { throw ValidationError("--offline needs --scheme") }
        let mode = securityMode ?? "oauth"
        guard let securityMode = ClientConfiguration.SecurityMode(rawValue: mode) else {
            throw ValidationError("--security-mode must be oauth or apiKey, not \(mode.debugDescription)")
        }
        let redirect = redirectURI ?? "\(scheme)://oauth/callback"
        guard let redirectURL = URL(string: redirect) else { throw ValidationError("--redirect-uri \(redirect.debugDescription) is not a URL") }
        return try ClientConfiguration(
            serverURL: serverURL, clientID: clientID, redirectURI: redirectURL, urlScheme: scheme, securityMode: securityMode
        ).validated()
    }

    /// The checked project values for `configuration`.
    func spec(for configuration: ClientConfiguration) throws -> ProjectSpec {
        let sdk = sdkPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? Self.builtFromSDK
        guard let sdk, Self.isTandemSDK(sdk) else {
            throw GeneratorError.sdkNotFound(sdkPath ?? Self.builtFromSDK ?? "(none given)")
        }
        return try ProjectSpec(
            name: name ?? ProjectSpec.name(derivedFrom: configuration.name ?? configuration.clientID),
            bundleID: bundleID, configuration: configuration, widgetKind: widgetKind, sdkPath: sdk, teamID: teamID)
    }

    /// The SDK this binary was built from: the checkout holding this file
    /// (`<sdk>/Server/Sources/tandem/Commands/Generate/GenerateOptions.swift`), if it is still there.
    static var builtFromSDK: String? {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 { url.deleteLastPathComponent() }  // the file, then five folders
        return isTandemSDK(url.path) ? url.path : nil
    }

    /// Whether `path` holds the Tandem SDK's Package.swift.
    static func isTandemSDK(_ path: String) -> Bool {
        guard let manifest = try? String(contentsOfFile: path + "/Package.swift", encoding: .utf8) else { return false }
        return manifest.contains("name: \"Tandem\"")
    }

    /// "tandem 0.9.0", for the generated files' headers.
    static var generator: String { "tandem \(TandemServerInfo.version)" }
}
