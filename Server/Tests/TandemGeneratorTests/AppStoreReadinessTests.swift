import Foundation
import TandemAuth
@testable import TandemGenerator
import Testing
import Yams

/// What App Store Connect and a real iPhone check of a generated project: the floors, the
/// version keys both Info.plists read, an icon, the orientations, privacy manifests, the App
/// Intents packages that make the widget's configuration exist, and a clear word when no team
/// was given.
struct AppStoreReadinessTests {
    static let generator = Result { try ProjectGenerator(version: "tandem test") }

    static func spec(teamID: String? = "ABCDE12345") throws -> ProjectSpec {
        let configuration = ClientConfiguration(
            serverURL: try #require(URL(string: "https://tandem.example.com")), clientID: "sales-app",
            redirectURI: URL(string: "sales://oauth/callback"), urlScheme: "sales", securityMode: .oauth, name: "Sales")
        return try ProjectSpec(
            name: "Sales", bundleID: "com.example.sales", configuration: configuration, sdkPath: "/src/tandem", teamID: teamID)
    }

    static func file(_ path: String, in files: [GeneratedFile]) throws -> GeneratedFile {
        try #require(files.first { $0.path == path }, "no \(path)")
    }

    static func yaml(_ path: String, in files: [GeneratedFile]) throws -> [String: Any] {
        try #require(try Yams.load(yaml: file(path, in: files).contents) as? [String: Any])
    }

    static func infoProperties(_ target: [String: Any]) throws -> [String: Any] {
        try #require((target["info"] as? [String: Any])?["properties"] as? [String: Any])
    }

    @Test("the app runs on iOS 16, the widget on iOS 17, AppCore on iOS 16")
    func floors() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let project = try Self.yaml("project.yml", in: files)
        #expect((project["options"] as? [String: Any]).flatMap { ($0["deploymentTarget"] as? [String: Any])?["iOS"] as? String } == "16.0")
        let targets = try #require(project["targets"] as? [String: [String: Any]])
        #expect(targets["Sales"]?["deploymentTarget"] == nil, "the app takes the project's floor")
        #expect(targets["SalesWidget"]?["deploymentTarget"] as? String == "17.0")
        #expect(try Self.file("AppCore/Package.swift", in: files).contents.contains("platforms: [.iOS(.v16), .macOS(.v13)]"))

        let widgetFiles = try Self.generator.get().files(.widget, spec: try Self.spec())
        let widgetTarget = try #require((try Self.yaml("TandemWidget.yml", in: widgetFiles)["targets"] as? [String: [String: Any]])?["SalesWidget"])
        #expect(widgetTarget["deploymentTarget"] as? String == "17.0")
    }

    @Test("both Info.plists read the version and build number from the build settings")
    func versionKeys() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let project = try Self.yaml("project.yml", in: files)
        let settings = try #require((project["settings"] as? [String: Any])?["base"] as? [String: Any])
        #expect(settings["MARKETING_VERSION"] as? String == "1.0")
        #expect(settings["CURRENT_PROJECT_VERSION"] as? String == "1")
        let targets = try #require(project["targets"] as? [String: [String: Any]])
        for name in ["Sales", "SalesWidget"] {
            let info = try Self.infoProperties(try #require(targets[name]))
            #expect(info["CFBundleShortVersionString"] as? String == "$(MARKETING_VERSION)", "\(name)")
            #expect(info["CFBundleVersion"] as? String == "$(CURRENT_PROJECT_VERSION)", "\(name)")
        }

        let widgetFiles = try Self.generator.get().files(.widget, spec: try Self.spec())
        let widget = try #require((try Self.yaml("TandemWidget.yml", in: widgetFiles)["targets"] as? [String: [String: Any]])?["SalesWidget"])
        let widgetSettings = try #require((widget["settings"] as? [String: Any])?["base"] as? [String: Any])
        #expect(widgetSettings["MARKETING_VERSION"] != nil && widgetSettings["CURRENT_PROJECT_VERSION"] != nil)
        let widgetInfo = try Self.infoProperties(widget)
        #expect(widgetInfo["CFBundleShortVersionString"] as? String == "$(MARKETING_VERSION)")
        #expect(widgetInfo["CFBundleVersion"] as? String == "$(CURRENT_PROJECT_VERSION)")
    }

    @Test("the app has an AppIcon set with one opaque 1024-point PNG, and the target names it")
    func iconSet() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let app = try #require((try Self.yaml("project.yml", in: files)["targets"] as? [String: [String: Any]])?["Sales"])
        #expect((app["settings"] as? [String: Any]).flatMap { ($0["base"] as? [String: Any])?["ASSETCATALOG_COMPILER_APPICON_NAME"] as? String } == "AppIcon")
        let set = try Self.file("App/Assets.xcassets/AppIcon.appiconset/Contents.json", in: files)
        let contents = try #require(try JSONSerialization.jsonObject(with: set.bytes) as? [String: Any])
        let images = try #require(contents["images"] as? [[String: String]])
        #expect(images == [["filename": "AppIcon.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"]])
        _ = try Self.file("App/Assets.xcassets/Contents.json", in: files)

        let png = [UInt8](try Self.file("App/Assets.xcassets/AppIcon.appiconset/AppIcon.png", in: files).bytes)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // The chunks in order, each with a correct CRC; IHDR says 1024 × 1024, indexed colour.
        var offset = 8
        var types: [String] = []
        while offset < png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let typed = png[offset + 4..<offset + 8 + length]
            let crc = png[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(PNGImage.crc32(typed) == crc)
            types.append(String(decoding: typed.prefix(4), as: UTF8.self))
            if types.last == "IHDR" {
                let header = Array(typed.dropFirst(4))
                #expect(header[0..<4].reduce(0) { $0 << 8 | Int($1) } == 1024)
                #expect(header[4..<8].reduce(0) { $0 << 8 | Int($1) } == 1024)
                #expect(header[9] == 3, "indexed colour: no alpha channel")
            }
            offset += 12 + length
        }
        #expect(types == ["IHDR", "PLTE", "IDAT", "IEND"], "no tRNS chunk: the icon is opaque")
    }

    @Test("the CRC-32 and Adler-32 match their published check values")
    func checksums() {
        // The standard check input of both (RFC 1950 for Adler-32; CRC-32/ISO-HDLC's catalogue value).
        #expect(PNGImage.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGImage.adler32(Data("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test("portrait on iPhone, every orientation on iPad")
    func orientations() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let app = try #require((try Self.yaml("project.yml", in: files)["targets"] as? [String: [String: Any]])?["Sales"])
        let info = try Self.infoProperties(app)
        #expect(info["UISupportedInterfaceOrientations"] as? [String] == ["UIInterfaceOrientationPortrait"])
        #expect(Set(info["UISupportedInterfaceOrientations~ipad"] as? [String] ?? []) == [
            "UIInterfaceOrientationPortrait", "UIInterfaceOrientationPortraitUpsideDown",
            "UIInterfaceOrientationLandscapeLeft", "UIInterfaceOrientationLandscapeRight",
        ])
        #expect((app["settings"] as? [String: Any]).flatMap { ($0["base"] as? [String: Any])?["TARGETED_DEVICE_FAMILY"] as? String } == "1,2")
    }

    @Test("the app and the widget each ship a privacy manifest that tracks nothing")
    func privacyManifests() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        for path in ["App/PrivacyInfo.xcprivacy", "Widget/PrivacyInfo.xcprivacy"] {
            let manifest = try #require(
                try PropertyListSerialization.propertyList(from: Self.file(path, in: files).bytes, format: nil) as? [String: Any])
            #expect(manifest["NSPrivacyTracking"] as? Bool == false, "\(path)")
            #expect(manifest["NSPrivacyAccessedAPITypes"] is [Any], "\(path)")
        }
        let widgetFiles = try Self.generator.get().files(.widget, spec: try Self.spec())
        _ = try Self.file("SalesWidget/PrivacyInfo.xcprivacy", in: widgetFiles)
    }

    @Test("the host declares an App Intents package naming the widget's; the widget's intents stay in the SDK, behind an Xcode 26 floor")
    func appIntentsPlacement() throws {
        for (kind, host, widget) in [(ProjectKind.app, "App", "Widget"), (.widget, "SalesWidgetHost", "SalesWidget")] {
            let files = try Self.generator.get().files(kind, spec: try Self.spec())
            let hostPackage = try Self.file("\(host)/SalesAppIntents.swift", in: files).contents
            #expect(hostPackage.contains("struct SalesAppIntents: AppIntentsPackage"))
            #expect(hostPackage.contains("[TandemWidgetsAppIntents.self]"))
            let widgetPackage = try Self.file("\(widget)/SalesWidgetIntents.swift", in: files).contents
            #expect(widgetPackage.contains("#if !compiler(>=6.2)\n#error("))
            #expect(widgetPackage.contains("[TandemWidgetsAppIntents.self]"))
            // The intent and its entity are the SDK's (DataWidgetIntent, EntitySetEntity): none is generated.
            for file in files where file.path.hasSuffix(".swift") {
                #expect(!file.contents.contains(": WidgetConfigurationIntent"), "\(file.path)")
                #expect(!file.contents.contains(": AppEntity"), "\(file.path)")
            }
        }
    }

    @Test("the app installs every widget intent it exposes while it launches, with the host's executor on the background flow's queue")
    func appInstallsWhatItExposes() throws {
        // Every type of the widgets' App Intents package that must be installed before it runs
        // (the SDK's own sources say which: they declare `static func install(`).
        let apple = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Sources/TandemWidgets/Apple")
        let installable = try FileManager.default.contentsOfDirectory(at: apple.standardizedFileURL, includingPropertiesForKeys: nil)
            .filter { try String(contentsOf: $0, encoding: .utf8).contains("static func install(") }
            .map { $0.deletingPathExtension().lastPathComponent }
        #expect(Set(installable) == ["DataWidgetCatalog", "ItemActionIntent"], "a new installable intent: install it in the app too")
        for (kind, host) in [(ProjectKind.app, "App"), (.widget, "SalesWidgetHost")] {
            let files = try Self.generator.get().files(kind, spec: try Self.spec())
            let installation = try Self.file("\(host)/AppIntentsInstallation.swift", in: files).contents
            for type in installable {
                #expect(installation.contains("\(type).install(container: container, credentials: credentials"), "\(kind): \(type)")
            }
            #expect(installation.contains("let executor = HostActionExecutor(context: context, reloader: WidgetCenterReloader(), queue: work)"))
            #expect(installation.contains("ItemActionIntent.install(container: container, credentials: credentials, executor: executor)"))
            #expect(installation.contains("#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163) && os(iOS)"))
        }
        let model = try Self.file("App/AppModel.swift", in: try Self.generator.get().files(.app, spec: try Self.spec())).contents
        let start = try #require(model.range(of: "func start() {"))
        let install = try #require(model.range(of: "AppIntentsInstallation.install(", range: start.upperBound..<model.endIndex))
        let scheduler = try #require(model.range(of: "scheduler = try AppRefreshScheduler(", range: start.upperBound..<model.endIndex))
        #expect(install.lowerBound < scheduler.lowerBound, "installed while the app launches, before any background work")
        #expect(model.contains("work: work)") && model.contains("await work.run { await Self.runInBackground(services) }"), "one queue for both")
        let readme = try Self.file("TandemWidget-README.md", in: try Self.generator.get().files(.widget, spec: try Self.spec())).contents
        #expect(readme.contains("AppIntentsInstallation.install(container:sharedSecrets:context:work:)"))
    }

    @Test("the generated project commits its Package.resolved: an app's dependency versions are part of it")
    func resolvedVersionsAreCommitted() throws {
        let ignored = try Self.file(".gitignore", in: try Self.generator.get().files(.app, spec: try Self.spec())).contents
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        #expect(!ignored.contains { $0.contains("Package.resolved") }, "\(ignored)")
        #expect(ignored.contains(".build/") && ignored.contains("xcuserdata/"))
    }

    @Test("without a team the generator warns and the app's setup error names the missing team")
    func noTeam() throws {
        let warnings = try Self.spec(teamID: nil).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("--team-id") == true)
        #expect(warnings.first?.contains("Signing & Capabilities") == true)
        #expect(try Self.spec().warnings.isEmpty)

        let files = try Self.generator.get().files(.app, spec: try Self.spec(teamID: nil))
        let project = try Self.yaml("project.yml", in: files)
        #expect((project["settings"] as? [String: Any]).flatMap { ($0["base"] as? [String: Any])?["DEVELOPMENT_TEAM"] } == nil)
        #expect(try Self.file("App/AppServices.swift", in: files).contents.contains("guard !prefix.isEmpty else { throw AppSetupError.missingTeam }"))
        #expect(try Self.file("App/AppSetupError.swift", in: files).contents.contains("has no development team"))
    }

    @Test("the SSO approval's device name is asked from the user, starting from the model")
    func deviceLabel() throws {
        let files = try Self.generator.get().files(.app, spec: try Self.spec())
        let model = try Self.file("App/AppModel.swift", in: files).contents
        #expect(model.contains("prompts.deviceLabel(suggested: UIDevice.current.model)"))
        #expect(!model.contains("UIDevice.current.name"))
    }
}
