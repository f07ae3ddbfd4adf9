import Foundation

/// The allowed arrows between Tandem's modules, and the imports that cross them.
///
/// The list lives in docs/ARCHITECTURE.md, in the fenced block marked `layering`: one line per
/// module, `Module -> Allowed, Modules` (nothing after the arrow: it imports no Tandem module).
/// A module's sources are the Swift files under `Sources/<Module>/` of either package.
struct Layering {
    /// Each module and the Tandem modules it may import.
    let allowed: [String: Set<String>]

    /// What the ARCHITECTURE.md block could not say.
    enum ParseError: Error, CustomStringConvertible {
        case noBlock
        case malformed(line: String)
        case duplicate(String)

        var description: String {
            switch self {
            case .noBlock: "no ```layering block in the document"
            case .malformed(let line): "not `Module -> Modules`: \(line)"
            case .duplicate(let module): "\(module) is listed twice"
            }
        }
    }

    /// One import that the list does not allow.
    struct Crossing: Equatable, CustomStringConvertible {
        let file: String
        let module: String
        let imported: String

        var description: String { "\(file): \(module) imports \(imported), which the layering list does not allow" }
    }

    /// Reads the `layering` block of `document`.
    init(document: String) throws {
        guard let start = document.range(of: "```layering\n"),
              let end = document.range(of: "\n```", range: start.upperBound..<document.endIndex)
        else { throw ParseError.noBlock }
        var allowed: [String: Set<String>] = [:]
        for raw in document[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let sides = line.components(separatedBy: "->")
            guard sides.count == 2 else { throw ParseError.malformed(line: line) }
            let module = sides[0].trimmingCharacters(in: .whitespaces)
            guard !module.isEmpty, !module.contains(" ") else { throw ParseError.malformed(line: line) }
            guard allowed[module] == nil else { throw ParseError.duplicate(module) }
            let targets = sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            allowed[module] = Set(targets)
        }
        self.allowed = allowed
    }

    /// The modules the list names.
    var modules: Set<String> { Set(allowed.keys) }

    /// The module `imported` may be reached from `module` through allowed arrows (or is it).
    func reachable(from module: String) -> Set<String> {
        var seen: Set<String> = [module]
        var queue = [module]
        while let next = queue.popLast() {
            for target in allowed[next] ?? [] where seen.insert(target).inserted { queue.append(target) }
        }
        return seen
    }

    /// Every import of a listed module, in the sources of the modules under `sourceRoots`, that
    /// the list does not allow; a module folder the list does not name is reported too.
    func crossings(sourceRoots: [URL]) throws -> (crossings: [Crossing], unlisted: [String]) {
        var crossings: [Crossing] = []
        var unlisted: [String] = []
        let files = FileManager.default
        for root in sourceRoots {
            for module in try files.contentsOfDirectory(atPath: root.path).sorted() {
                let folder = root.appendingPathComponent(module, isDirectory: true)
                guard try Self.containsSwift(folder) else { continue }
                guard let allowedImports = allowed[module] else {
                    unlisted.append(module)
                    continue
                }
                for file in try Self.swiftFiles(in: folder) {
                    let text = try String(contentsOf: file, encoding: .utf8)
                    for imported in Self.imports(in: text) where modules.contains(imported) && imported != module {
                        if !allowedImports.contains(imported) {
                            crossings.append(Crossing(file: file.path, module: module, imported: imported))
                        }
                    }
                }
            }
        }
        return (crossings, unlisted)
    }

    /// The modules `text` imports (`import X`, `@testable import X`, `import struct X.Y`).
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { raw in
            var words = raw.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let name = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return String(name.split(separator: ".").first ?? "")
        }
    }

    private static func swiftFiles(in folder: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    private static func containsSwift(_ folder: URL) throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        return try !swiftFiles(in: folder).isEmpty
    }
}
