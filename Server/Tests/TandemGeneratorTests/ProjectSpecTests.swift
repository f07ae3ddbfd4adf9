import Foundation
import TandemAuth
import TandemGenerator
import Testing

/// Every value that ends up in Swift, YAML or an entitlement is checked before anything is written.
struct ProjectSpecTests {
    static let sdk = "/src/tandem"

    static func configuration(scheme: String? = "sales", clientID: String = "sales-app", name: String? = "Sales (demo)") throws -> ClientConfiguration {
        ClientConfiguration(
            serverURL: try #require(URL(string: "https://tandem.example.com")), clientID: clientID,
            redirectURI: URL(string: "sales://oauth/callback"), urlScheme: scheme, name: name)
    }

    @Test func aGoodSpecDerivesAgreeingIdentifiers() throws {
        let spec = try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(), sdkPath: Self.sdk)
        #expect(spec.appGroup == "group.com.example.sales")
        #expect(spec.sharedKeychainGroup == "com.example.sales.shared")
        #expect(spec.backgroundTaskIdentifier == "com.example.sales.refresh")
        #expect(spec.widgetBundleID == "com.example.sales.widget")
        #expect(spec.displayName == "Sales (demo)")
        #expect(spec.urlScheme == "sales")
    }

    @Test(arguments: ["sales", "1Sales", "Sal es", "AppCore", "TandemAuth", "Sales\""])
    func badAppNamesAreRefused(name: String) throws {
        let error = #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: name, bundleID: "com.example.sales", configuration: try Self.configuration(), sdkPath: Self.sdk)
        }
        guard case .invalidValue(let value, _, _) = error else { Issue.record("expected invalidValue, got \(String(describing: error))"); return }
        #expect(value == "the app name")
    }

    @Test(arguments: ["sales", "com..example", "com.example.", "com.exa mple.sales", "com.example.sales\"", ".com.example"])
    func badBundleIdentifiersAreRefused(bundleID: String) throws {
        let error = #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: bundleID, configuration: try Self.configuration(), sdkPath: Self.sdk)
        }
        guard case .invalidValue(let name, _, _) = error else { Issue.record("expected invalidValue, got \(String(describing: error))"); return }
        #expect(name == "the bundle identifier")
    }

    @Test func anAppWithoutAURLSchemeIsRefused() throws {
        let error = #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(scheme: nil), sdkPath: Self.sdk)
        }
        #expect("\(String(describing: error))".contains("URL scheme"))
    }

    @Test(arguments: ["Sales", "sa les", "sales\"", "1sales", ""])
    func badSchemesAreRefused(scheme: String) throws {
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(scheme: scheme), sdkPath: Self.sdk)
        }
    }

    @Test func otherValuesThatCouldBreakOutAreRefused() throws {
        let configuration = try Self.configuration()
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(clientID: "a\"b"), sdkPath: Self.sdk)
        }
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, sdkPath: "relative/path")
        }
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, sdkPath: "/a\"b")
        }
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, widgetKind: "a/b", sdkPath: Self.sdk)
        }
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk, teamID: "abc")
        }
        #expect(throws: GeneratorError.self) {
            try ProjectSpec(name: "Sales", displayName: "Sales\nname: x", bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk)
        }
    }

    @Test("a value that matches its pattern except for a final line break is refused (ICU's $ matches before one)")
    func aTrailingLineBreakIsRefusedEverywhere() throws {
        let configuration = try Self.configuration()
        let values: [(String, () throws -> ProjectSpec)] = [
            ("name", { try ProjectSpec(name: "Sales\n", bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk) }),
            ("bundle id", { try ProjectSpec(name: "Sales", bundleID: "com.example.sales\n", configuration: configuration, sdkPath: Self.sdk) }),
            ("client id", {
                try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(clientID: "sales\n"), sdkPath: Self.sdk)
            }),
            ("URL scheme", {
                try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: try Self.configuration(scheme: "sales\n"), sdkPath: Self.sdk)
            }),
            ("widget kind", {
                try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, widgetKind: "kind\n", sdkPath: Self.sdk)
            }),
            ("team id", {
                try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk, teamID: "ABCDE12345\n")
            }),
        ]
        for (field, make) in values {
            #expect(throws: GeneratorError.self, "\(field)") { try make() }
        }
        // The same values without the line break are fine.
        _ = try ProjectSpec(name: "Sales", bundleID: "com.example.sales", configuration: configuration, widgetKind: "kind", sdkPath: Self.sdk, teamID: "ABCDE12345")
    }

    @Test("a display name with a bidirectional override or a line separator is refused; emoji sequences are not")
    func aDisplayNameCannotHideWhatItSays() throws {
        let configuration = try Self.configuration()
        for hidden in ["Sales\u{202E}gnp.exe", "Sales\u{2066}x\u{2069}", "Sales\u{2028}Other"] {
            #expect(throws: GeneratorError.self, "\(hidden.unicodeScalars.map { String($0.value, radix: 16) })") {
                try ProjectSpec(name: "Sales", displayName: hidden, bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk)
            }
        }
        let family = try ProjectSpec(name: "Sales", displayName: "Sales 👩‍👩‍👧", bundleID: "com.example.sales", configuration: configuration, sdkPath: Self.sdk)
        #expect(family.displayName == "Sales 👩‍👩‍👧")
    }

    @Test func namesAreDerivedFromTheAppsName() {
        #expect(ProjectSpec.name(derivedFrom: "Tandem demo") == "TandemDemo")
        #expect(ProjectSpec.name(derivedFrom: "sales-app 2") == "SalesApp2")
        #expect(ProjectSpec.name(derivedFrom: "42 things") == "Things")
        #expect(ProjectSpec.name(derivedFrom: "---") == "MyApp")
        #expect(ProjectSpec.name(derivedFrom: "app core") == "MyApp")
    }
}
