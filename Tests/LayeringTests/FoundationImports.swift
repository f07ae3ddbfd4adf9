import Foundation

/// The widget binary's rule for Foundation: its modules import FoundationEssentials where the
/// platform has it (Linux), and all of Foundation only where it does not (Apple platforms,
/// where Foundation is in the shared cache anyway). Linking all of Foundation on Linux brings
/// ICU and the rest of swift-corelibs-foundation: half the widget binary and 4 MB of its memory.
enum FoundationImports {
    /// The one accepted way to import Foundation in a widget-side file.
    static let essentialsFirst = "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif"

    /// How many of `text`'s imports of Foundation (or one of its parts) are not the `#else`
    /// branch of ``essentialsFirst``.
    static func unconditionalImports(in text: String) -> Int {
        let imports = Layering.imports(in: text).filter { $0 == "Foundation" }.count
        return imports - text.components(separatedBy: essentialsFirst).count + 1
    }

    /// The files under `folders`, outside `Apple/` folders, that import all of Foundation.
    static func offenders(in folders: [URL]) throws -> [String] {
        var offenders: [String] = []
        for folder in folders {
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" && !file.pathComponents.contains("Apple") {
                if unconditionalImports(in: try String(contentsOf: file, encoding: .utf8)) > 0 { offenders.append(file.path) }
            }
        }
        return offenders.sorted()
    }
}
