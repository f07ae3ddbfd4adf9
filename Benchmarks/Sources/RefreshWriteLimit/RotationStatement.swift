import Foundation

/// The statement a refresh grant redeems its token with, taken from the server's own source
/// (`TokenStore.rotate(_:)`), so the limit is measured on the statement the server runs today
/// rather than on a copy that drifts.
///
/// The SQL is the body of the one `database.raw("""…""")` in the file declaring `func rotate(`
/// that updates `refresh_tokens` setting `rotated_at` (the redemption itself, wherever in the file
/// it sits) — or, where the file has one for bearer grants and one for DPoP-bound grants, the one
/// that binds nothing of `rotation.proof` (the loop redeems bearer grants); each
/// `\(bind: expression)` becomes a numbered parameter (`?1`, `?2`, …, as SQLiteKit serializes
/// SQLKit's binds), and ``binds`` names what the server binds there.
struct RotationStatement {
    /// The SQL, with numbered parameters.
    let sql: String
    /// The Swift expression the server binds at each parameter, in order.
    let binds: [String]
    /// The file it was read from.
    let file: URL

    /// Reads the statement from the one Swift file under `sourceRoot` that declares `func rotate(`
    /// and runs a raw statement in it.
    ///
    /// - Throws: ``RefreshWriteLimitFailure`` when no file (or more than one) has it, when the
    ///   file has no such statement or several, or when the statement has an interpolation other
    ///   than `\(bind: …)`.
    init(findingIn sourceRoot: URL) throws {
        let candidates = try Self.swiftFiles(under: sourceRoot).filter { file in
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { return false }
            return text.contains("func rotate(") && text.contains("database.raw(\"\"\"")
        }
        guard candidates.count == 1, let file = candidates.first else {
            throw RefreshWriteLimitFailure(
                "expected one Swift file under \(sourceRoot.path) with `func rotate(` and a raw statement, found \(candidates.count)")
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        var redemptions = Self.rawStatements(in: text).filter { literal in
            literal.contains("UPDATE refresh_tokens") && literal.contains("SET rotated_at")
        }
        if redemptions.count > 1 {
            // A bearer redemption and a DPoP-bound one: the loop redeems bearer grants.
            redemptions.removeAll { $0.contains("rotation.proof") }
        }
        guard redemptions.count == 1, let literal = redemptions.first else {
            throw RefreshWriteLimitFailure(
                "\(file.path): expected one raw statement updating refresh_tokens SET rotated_at (or one such bearer statement, binding no `rotation.proof`), found \(redemptions.count)")
        }
        (sql, binds) = try Self.parameterised(literal, in: file)
        self.file = file
    }

    /// The bodies of every `database.raw("""…""")` in `text`.
    private static func rawStatements(in text: String) -> [Substring] {
        var statements: [Substring] = []
        var rest = text[...]
        while let open = rest.range(of: "database.raw(\"\"\""), let close = rest.range(of: "\"\"\"", range: open.upperBound..<rest.endIndex) {
            statements.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return statements
    }

    /// `literal` with every `\(bind: …)` replaced by `?N`, and the bound expressions.
    private static func parameterised(_ literal: Substring, in file: URL) throws -> (String, [String]) {
        var sql = ""
        var binds: [String] = []
        var rest = literal[...]
        while let start = rest.range(of: "\\(") {
            sql += rest[..<start.lowerBound]
            // The interpolation ends at the parenthesis that balances its opening one.
            var depth = 1
            var index = start.upperBound
            while depth > 0 {
                guard index < rest.endIndex else { throw RefreshWriteLimitFailure("\(file.path): unbalanced interpolation in the rotation statement") }
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            let interpolation = rest[start.upperBound..<rest.index(before: index)]
            guard interpolation.hasPrefix("bind:") else {
                throw RefreshWriteLimitFailure("\(file.path): the rotation statement interpolates `\(interpolation)`, not a bind; this program runs binds only")
            }
            binds.append(interpolation.dropFirst("bind:".count).trimmingCharacters(in: .whitespaces))
            sql += "?\(binds.count)"
            rest = rest[index...]
        }
        sql += rest
        return (sql, binds)
    }

    private static func swiftFiles(under root: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw RefreshWriteLimitFailure("cannot list \(root.path)")
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}
