import Foundation
import Testing

/// The modules keep to the arrows docs/ARCHITECTURE.md draws: the widget extension never links
/// the vault or the host, the server links only the protocol and the renderer.
@Suite("Module layering")
struct LayeringTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sourceRoots = [
        repository.appendingPathComponent("Sources"), repository.appendingPathComponent("Server/Sources"),
    ]

    static func layering() throws -> Layering {
        try Layering(document: String(contentsOf: repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8))
    }

    @Test func everyImportFollowsTheListedArrows() throws {
        let (crossings, unlisted) = try Self.layering().crossings(sourceRoots: Self.sourceRoots)
        #expect(crossings.isEmpty, "\(crossings.map(\.description).joined(separator: "\n"))")
        #expect(unlisted.isEmpty, "modules missing from the layering list: \(unlisted)")
    }

    @Test func theWidgetExtensionReachesNeitherTheVaultNorTheHost() throws {
        let reachable = try Self.layering().reachable(from: "TandemWidgets")
        #expect(!reachable.contains("TandemVault"))
        #expect(!reachable.contains("TandemHost"))
        #expect(!reachable.contains("TandemWidgetRendering"))
        #expect(!reachable.contains("TandemWidgetSimulator"))
        #expect(try !Self.layering().reachable(from: "tandem-widget").contains("TandemVault"))
    }

    @Test func theServerReachesOnlyTheProtocolThePlatformTheRendererAndItsBackends() throws {
        let reachable = try Self.layering().reachable(from: "TandemServer")
        #expect(reachable == ["TandemServer", "TandemProtocol", "TandemPlatform", "TandemWidgetModel", "TandemWidgetRendering", "TandemBackends"])
    }

    @Test func theListHasNoCycle() throws {
        let layering = try Self.layering()
        for (module, targets) in layering.allowed {
            for target in targets {
                #expect(!layering.reachable(from: target).contains(module), "\(module) and \(target) reach each other")
            }
        }
    }

    /// The check is not vacuous: a widget-side file importing the vault, planted in a copy of
    /// the tree's shape, is reported; and so is a module the list does not name.
    @Test func aDeliberateCrossingIsReported() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let widgets = root.appendingPathComponent("TandemWidgets/Provider", isDirectory: true)
        let stray = root.appendingPathComponent("TandemStray", isDirectory: true)
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: true)
        try "import Foundation\nimport TandemAuth\n@testable import TandemVault\n".write(
            to: widgets.appendingPathComponent("Crossing.swift"), atomically: true, encoding: .utf8)
        try "import Foundation\n".write(to: stray.appendingPathComponent("Stray.swift"), atomically: true, encoding: .utf8)

        let (crossings, unlisted) = try Self.layering().crossings(sourceRoots: [root])
        #expect(crossings.map(\.imported) == ["TandemVault"])
        #expect(crossings.first?.module == "TandemWidgets")
        #expect(unlisted == ["TandemStray"])
    }

    /// ARCHITECTURE.md's other rule: a concept that grows past twenty files gets subfolders.
    @Test func noFolderHoldsMoreThanTwentySwiftFiles() throws {
        var crowded: [String] = []
        for root in ["Sources", "Server/Sources", "Tests", "Server/Tests"] {
            let base = Self.repository.appendingPathComponent(root)
            guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isDirectoryKey]) else { continue }
            for case let folder as URL in enumerator where (try folder.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true {
                let count = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.count
                if count > 20 { crowded.append("\(folder.path): \(count) files") }
            }
        }
        #expect(crowded.isEmpty, "\(crowded.joined(separator: "\n"))")
    }

    @Test func aMalformedListIsRefused() {
        #expect(throws: Layering.ParseError.self) { try Layering(document: "no block here") }
        #expect(throws: Layering.ParseError.self) { try Layering(document: "```layering\nA B C\n```") }
        #expect(throws: Layering.ParseError.self) { try Layering(document: "```layering\nA ->\nA -> B\n```") }
    }

    @Test func importsAreReadInEveryForm() {
        let text = "import Foundation\n@testable import TandemVault\nimport struct TandemAuth.TokenSet\n  import TandemHost\n// import TandemNothing\n"
        #expect(Layering.imports(in: text) == ["Foundation", "TandemVault", "TandemAuth", "TandemHost"])
    }
}
