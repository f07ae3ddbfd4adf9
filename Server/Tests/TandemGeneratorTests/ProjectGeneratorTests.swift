import Foundation
import TandemAuth
import TandemGenerator
import TandemTestSupport
import Testing
import Yams

/// The generator renders every template, writes project.yml as XcodeGen reads it, and never
/// leaves a half-written project or touches files it did not make.
struct ProjectGeneratorTests {
    static func spec(
        displayName: String? = nil, securityMode: ClientConfiguration.SecurityMode = .oauth, ssoLinkHost: String? = nil
    ) throws -> ProjectSpec {
        let configuration = ClientConfiguration(
            serverURL: try #require(URL(string: "https://tandem.example.com")), clientID: "sales-app",
            redirectURI: URL(string: "sales://oauth/callback"), urlScheme: "sales", securityMode: securityMode, name: "Sales",
            ssoLinkHost: ssoLinkHost)
        return try ProjectSpec(
            name: "Sales", displayName: displayName, bundleID: "com.example.sales", configuration: configuration, sdkPath: "/src/tandem",
            teamID: "ABCDE12345")
    }

    static let generator = Result { try ProjectGenerator(version: "tandem test") }

    @Test func anAppProjectHasItsTargetsAndPackage() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let paths = Set(files.map(\.path))
        for expected in [
            "project.yml", "README.md", "App/SalesApp.swift", "App/AppModel.swift", "Widget/SalesWidgets.swift",
            "Widget/BusinessDataWidget.swift", "AppCore/Package.swift", "AppCore/Sources/AppCoreHost/AppFlow.swift",
            "AppCore/Tests/AppCoreTests/AppCoreTests.swift",
        ] {
            #expect(paths.contains(expected), "missing \(expected)")
        }
        for file in files {
            #expect(!file.contents.contains("{{"), "\(file.path) has an unrendered tag")
            #expect(!file.contents.contains("CONTENT_TYPE"), "\(file.path) kept the pragma")
        }
        let settings = try #require(files.first { $0.path == "AppCore/Sources/AppCore/AppSettings.swift" })
        #expect(settings.contents.contains(#"serverAddress: "https://tandem.example.com""#))
        #expect(settings.contents.contains(#"appGroup: "group.com.example.sales""#))
    }

    @Test func projectYAMLHasTheKeysXcodeGenNeeds() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let text = try #require(files.first { $0.path == "project.yml" }).contents
        let project = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect(project["name"] as? String == "Sales")
        let packages = try #require(project["packages"] as? [String: Any])
        #expect((packages["Tandem"] as? [String: Any])?["path"] as? String == "/src/tandem")
        #expect((packages["AppCore"] as? [String: Any])?["path"] as? String == "AppCore")
        let targets = try #require(project["targets"] as? [String: [String: Any]])
        let app = try #require(targets["Sales"])
        let widget = try #require(targets["SalesWidget"])
        #expect(app["type"] as? String == "application")
        #expect(widget["type"] as? String == "app-extension")
        #expect(app["platform"] as? String == "iOS")
        #expect(widget["platform"] as? String == "iOS")
        #expect(app["sources"] as? [String] == ["App"])
        #expect(widget["sources"] as? [String] == ["Widget"])
        let appDependencies = try #require(app["dependencies"] as? [[String: Any]])
        #expect(appDependencies.contains { $0["target"] as? String == "SalesWidget" })
        #expect(Set(appDependencies.compactMap { $0["product"] as? String }) == ["AppCore", "AppCoreHost", "TandemHost", "TandemURLSession"])
        // The widget links only the widget side: no vault, no flows, no host code of the app.
        let widgetDependencies = try #require(widget["dependencies"] as? [[String: Any]])
        #expect(Set(widgetDependencies.compactMap { $0["product"] as? String }) == ["AppCore", "TandemWidgets"])

        let appInfo = try #require((app["info"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(appInfo["BGTaskSchedulerPermittedIdentifiers"] as? [String] == ["com.example.sales.refresh"])
        #expect(appInfo["UIBackgroundModes"] as? [String] == ["fetch"])
        #expect(appInfo["NSCameraUsageDescription"] is String)
        let urlTypes = try #require(appInfo["CFBundleURLTypes"] as? [[String: Any]])
        #expect(urlTypes.first?["CFBundleURLSchemes"] as? [String] == ["sales"])
        let widgetInfo = try #require((widget["info"] as? [String: Any])?["properties"] as? [String: Any])
        #expect((widgetInfo["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String == "com.apple.widgetkit-extension")

        for target in [app, widget] {
            let entitlements = try #require((target["entitlements"] as? [String: Any])?["properties"] as? [String: Any])
            #expect(entitlements["com.apple.security.application-groups"] as? [String] == ["group.com.example.sales"])
            let groups = try #require(entitlements["keychain-access-groups"] as? [String])
            #expect(groups.contains("$(AppIdentifierPrefix)com.example.sales.shared"))
        }
        let widgetGroups = (widget["entitlements"] as? [String: Any]).flatMap { ($0["properties"] as? [String: Any])?["keychain-access-groups"] as? [String] }
        #expect(widgetGroups == ["$(AppIdentifierPrefix)com.example.sales.shared"], "the widget must not reach the vault's own group")
        let settings = try #require((project["settings"] as? [String: Any])?["base"] as? [String: Any])
        #expect(settings["DEVELOPMENT_TEAM"] as? String == "ABCDE12345")
    }

    /// Issue 37, S4-11: the shared keychain group holds the shared sealing key, so any target
    /// with it writes action requests the app executes with the user's grant. Only the app and
    /// its widget extension get it, from `generate app` and `generate widget` alike, and the
    /// READMEs say why no other target may.
    @Test func onlyTheAppAndItsWidgetGetTheSharedKeychainGroup() throws {
        let spec = try Self.spec()
        let app = try Self.generator.get().files(.app, spec: spec)
        #expect(try Self.targets(holding: spec.sharedKeychainGroup, in: app) == ["Sales", "SalesWidget"])
        let widget = try Self.generator.get().files(.widget, spec: spec)
        #expect(try Self.targets(holding: spec.sharedKeychainGroup, in: widget) == ["SalesWidget"])
        for (files, readme) in [(app, "README.md"), (widget, "TandemWidget-README.md")] {
            let text = try #require(files.first { $0.path == readme }).contents
            #expect(text.replacingOccurrences(of: "\n", with: " ").contains("the step-up threshold"), "\(readme) warns against giving the group to another target")
        }
    }

    /// The targets, in every XcodeGen file of `files`, whose keychain groups include `group`
    /// (after the team prefix), and the entitlements files that name it, sorted.
    static func targets(holding group: String, in files: [GeneratedFile]) throws -> [String] {
        var holders: [String] = []
        for file in files where file.path.hasSuffix(".yml") {
            let project = try #require(try Yams.load(yaml: file.contents) as? [String: Any])
            for (name, target) in project["targets"] as? [String: [String: Any]] ?? [:] {
                let entitlements = (target["entitlements"] as? [String: Any])?["properties"] as? [String: Any]
                let groups = entitlements?["keychain-access-groups"] as? [String] ?? []
                if groups.contains(where: { $0.hasSuffix(group) }) { holders.append(name) }
            }
        }
        // An entitlements file written as such, not through XcodeGen, counts too.
        for file in files where file.path.hasSuffix(".entitlements") && file.contents.contains(group) {
            holders.append(file.path)
        }
        return holders.sorted()
    }

    /// Issue 24, finding 3: when the server sends SSO links as universal links, the app claims
    /// their domain (and nothing else does without such links).
    @Test func universalSSOLinksAddTheAssociatedDomain() throws {
        func appEntitlements(_ spec: ProjectSpec) throws -> [String: Any] {
            let text = try #require(try Self.generator.get().files(.app, spec: spec).first { $0.path == "project.yml" }).contents
            let project = try #require(try Yams.load(yaml: text) as? [String: Any])
            let app = try #require((project["targets"] as? [String: [String: Any]])?["Sales"])
            return try #require((app["entitlements"] as? [String: Any])?["properties"] as? [String: Any])
        }
        #expect(try appEntitlements(Self.spec(ssoLinkHost: "links.example.com"))["com.apple.developer.associated-domains"] as? [String]
            == ["applinks:links.example.com"])
        #expect(try appEntitlements(Self.spec())["com.apple.developer.associated-domains"] == nil)
        let settings = try #require(try Self.generator.get().files(.app, spec: Self.spec(ssoLinkHost: "links.example.com"))
            .first { $0.path == "AppCore/Sources/AppCore/AppSettings.swift" })
        #expect(settings.contents.contains(#"ssoLinkHost: "links.example.com""#))
        #expect(throws: GeneratorError.self) { try Self.spec(ssoLinkHost: "links.example.com\n") }
    }

    @Test func aDisplayNameWithQuotesStaysOneValue() throws {
        let name = #"Sales "EU" \ North"#
        let files = try Self.generator.get().files(.app, spec: try Self.spec(displayName: name))
        let text = try #require(files.first { $0.path == "project.yml" }).contents
        let project = try #require(try Yams.load(yaml: text) as? [String: Any])
        let app = try #require((project["targets"] as? [String: [String: Any]])?["Sales"])
        #expect((app["info"] as? [String: Any]).flatMap { ($0["properties"] as? [String: Any])?["CFBundleDisplayName"] as? String } == name)
        let widgets = try #require(files.first { $0.path == "AppCore/Sources/AppCore/AppWidgets.swift" }).contents
        #expect(widgets.contains(#"displayName = "Sales \"EU\" \\ North""#))
    }

    @Test func aWidgetForAnExistingAppIsAddedBesideIt() throws {
        let app = try TemporaryDirectory()
        let existing = app.url.appendingPathComponent("project.yml")
        try Data("name: Sales\n".utf8).write(to: existing)
        let written = try Self.generator.get().write(.widget, spec: try Self.spec(), to: app.url)
        #expect(written.contains("TandemWidget.yml"))
        #expect(written.contains("SalesWidget/BusinessDataWidget.swift"))
        #expect(written.contains("WidgetCore/Package.swift"))
        #expect(written.contains("SalesWidgetHost/WidgetRegistrySync.swift"))
        #expect(try String(contentsOf: existing, encoding: .utf8) == "name: Sales\n", "the app's own files are not touched")
        let entries = try FileManager.default.contentsOfDirectory(atPath: app.path).sorted()
        #expect(entries == ["SalesWidget", "SalesWidgetHost", "TandemWidget-README.md", "TandemWidget.yml", "WidgetCore", "project.yml"])
        let readme = try String(contentsOf: app.url.appendingPathComponent("TandemWidget-README.md"), encoding: .utf8)
        #expect(readme.contains("No passcode change is needed"))
        let spec = try #require(try Yams.load(yaml: String(contentsOf: app.url.appendingPathComponent("TandemWidget.yml"), encoding: .utf8)) as? [String: Any])
        let target = try #require((spec["targets"] as? [String: [String: Any]])?["SalesWidget"])
        #expect(target["type"] as? String == "app-extension")
        #expect(target["sources"] as? [String] == ["SalesWidget"])
    }

    @Test func aWidgetIsNotAddedOverFilesThatExist() throws {
        let app = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: app.url.appendingPathComponent("WidgetCore"), withIntermediateDirectories: true)
        #expect(throws: GeneratorError.outputExists(app.url.appendingPathComponent("WidgetCore").standardizedFileURL.path)) {
            try Self.generator.get().write(.widget, spec: try Self.spec(), to: app.url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: app.path) == ["WidgetCore"], "nothing else was written")
        #expect(throws: GeneratorError.self) {
            try Self.generator.get().write(.widget, spec: try Self.spec(), to: app.url.appendingPathComponent("missing"))
        }
    }

    @Test func anAppIsWrittenWholeOrNotAtAll() throws {
        let parent = try TemporaryDirectory()
        let output = parent.url.appendingPathComponent("Sales")
        let written = try Self.generator.get().write(.app, spec: try Self.spec(), to: output)
        #expect(written.count == (try Self.generator.get().files(.app, spec: try Self.spec())).count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["Sales"], "no staging directory left")
        // A second run refuses the non-empty directory and leaves it as it was.
        let before = try String(contentsOf: output.appendingPathComponent("project.yml"), encoding: .utf8)
        #expect(throws: GeneratorError.outputExists(output.standardizedFileURL.path)) {
            try Self.generator.get().write(.app, spec: try Self.spec(displayName: "Other"), to: output)
        }
        #expect(try String(contentsOf: output.appendingPathComponent("project.yml"), encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["Sales"])
        // An empty directory is fine.
        let empty = parent.url.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Self.generator.get().write(.app, spec: try Self.spec(), to: empty)
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("project.yml").path))
    }

    @Test func anAPIKeyAppsCoreSaysSo() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec(securityMode: .apiKey))
        let settings = try #require(files.first { $0.path == "AppCore/Sources/AppCore/AppSettings.swift" }).contents
        #expect(settings.contains("securityMode: .apiKey"))
    }
}
