import Foundation
import Testing

/// Every Swift example in the Apple adapters' documentation (a `/// ```swift` block in a file of
/// an `Apple/` folder) and every Swift block of the SDK's DocC articles is in the AdapterExamples
/// package word for word, where the iOS type-check compiles it in Swift 6 language mode: an example
/// that no longer compiles fails there, and one changed in the documentation without the package
/// fails here.
@Suite("Adoption snippets")
struct AdoptionSnippetsTests {
    /// The `/// ```swift` blocks of `text`, each as its lines without the comment marker.
    static func examples(in text: String) -> [[String]] {
        swiftBlocks(text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { return nil }
            return trimmed.dropFirst(3).hasPrefix(" ") ? String(trimmed.dropFirst(4)) : String(trimmed.dropFirst(3))
        })
    }

    /// The fenced ```` ```swift ```` blocks of a Markdown `text` (a DocC article), each as its lines.
    static func articleExamples(in text: String) -> [[String]] {
        swiftBlocks(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// The ```` ```swift ```` … ```` ``` ```` blocks of `lines`; a `nil` line (not documentation)
    /// ends an open block unfinished.
    static func swiftBlocks(_ lines: [String?]) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines {
            guard let line else {
                current = nil
                continue
            }
            let fence = line.trimmingCharacters(in: .whitespaces)
            if current == nil, fence == "```swift" {
                current = []
            } else if let block = current, fence == "```" {
                blocks.append(block)
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `block`'s lines (leading and trailing spaces aside, blank lines kept) follow each
    /// other somewhere in `lines`.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        let wanted = block.map { $0.trimmingCharacters(in: .whitespaces) }
        let have = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !wanted.isEmpty, wanted.count <= have.count else { return false }
        return (0...(have.count - wanted.count)).contains { start in Array(have[start..<(start + wanted.count)]) == wanted }
    }

    static func swiftFiles(under directory: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test func everyAdapterExampleIsInTheExamplesPackageWordForWord() throws {
        let repository = LayeringTests.repository
        let snippets = try Self.swiftFiles(under: repository.appendingPathComponent("AdapterExamples/Sources")).map {
            try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")
        }
        #expect(snippets.count >= 4, "the AdapterExamples package's sources")
        let adapters = Self.swiftFiles(under: repository.appendingPathComponent("Sources")).filter { $0.path.contains("/Apple/") }
        var found = 0
        var missing: [String] = []
        for file in adapters {
            for example in Self.examples(in: try String(contentsOf: file, encoding: .utf8)) {
                found += 1
                if !snippets.contains(where: { Self.contains($0, example) }) {
                    missing.append("\(file.path.replacingOccurrences(of: repository.path + "/", with: "")): \(example.first ?? "")")
                }
            }
        }
        #expect(found >= 20, "the adapters' examples were found")
        #expect(missing.isEmpty, "examples not in AdapterExamples/ word for word:\n\(missing.joined(separator: "\n"))")
    }

    @Test func everySwiftBlockOfTheSDKsArticlesIsInTheExamplesPackageWordForWord() throws {
        let repository = LayeringTests.repository
        let examples = try Self.swiftFiles(under: repository.appendingPathComponent("AdapterExamples/Sources/ArticleExamples")).map {
            try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")
        }
        let articles = (FileManager.default.enumerator(at: repository.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
        var found = 0
        var missing: [String] = []
        for article in articles {
            for block in Self.articleExamples(in: try String(contentsOf: article, encoding: .utf8)) {
                found += 1
                if !examples.contains(where: { Self.contains($0, block) }) {
                    missing.append("\(article.lastPathComponent): \(block.first?.trimmingCharacters(in: .whitespaces) ?? "")")
                }
            }
        }
        #expect(found >= 25, "the articles' blocks were found")
        #expect(missing.isEmpty, "article blocks not in AdapterExamples/Sources/ArticleExamples word for word:\n\(missing.joined(separator: "\n"))")
    }

    @Test func anExampleChangedInTheDocumentationIsNotFound() {
        let documented = Self.examples(in: "/// Intro\n///\n/// ```swift\n/// let a = 1\n///     let b = a\n/// ```\nstruct S {}\n")
        #expect(documented == [["let a = 1", "    let b = a"]])
        #expect(Self.contains(["func f() {", "    let a = 1", "    let b = a", "}"], documented[0]))
        #expect(!Self.contains(["func f() {", "    let a = 2", "    let b = a", "}"], documented[0]))
        #expect(!Self.contains(["let b = a", "let a = 1"], documented[0]))
    }
}
