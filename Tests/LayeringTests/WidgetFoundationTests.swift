import Foundation
import Testing

/// Every module the widget binary links imports FoundationEssentials first, so `tandem-widget`
/// links neither ICU nor the rest of swift-corelibs-foundation (see `FoundationImports`).
@Suite("The widget binary's Foundation")
struct WidgetFoundationTests {
    @Test func everyWidgetSideModuleImportsFoundationEssentialsFirst() throws {
        let modules = try LayeringTests.layering().reachable(from: "tandem-widget")
        #expect(modules.contains("TandemWidgets") && modules.contains("TandemTool"))
        let folders = LayeringTests.sourceRoots.flatMap { root in modules.map { root.appendingPathComponent($0, isDirectory: true) } }
        let offenders = try FoundationImports.offenders(in: folders)
        #expect(offenders.isEmpty, "import FoundationEssentials first (\(FoundationImports.essentialsFirst.debugDescription)):\n\(offenders.joined(separator: "\n"))")
    }

    /// The check is not vacuous: a bare import, or one outside the `#else` branch, is counted.
    @Test func aBareImportOfFoundationIsCounted() {
        #expect(FoundationImports.unconditionalImports(in: "import Foundation\nimport TandemProtocol\n") == 1)
        #expect(FoundationImports.unconditionalImports(in: "@preconcurrency import struct Foundation.URL\n") == 1)
        #expect(FoundationImports.unconditionalImports(in: FoundationImports.essentialsFirst + "\nimport Foundation\n") == 1)
        #expect(FoundationImports.unconditionalImports(in: FoundationImports.essentialsFirst + "\nimport Logging\n") == 0)
        #expect(FoundationImports.unconditionalImports(in: "import Logging\n") == 0)
    }
}
