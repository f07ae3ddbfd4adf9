import Foundation
import TandemProtocol

/// Form bodies and queries (`Sources/TandemProtocol/Encoding/FormEncoding.swift`): the one
/// percent-encoding the client writes its form posts and queries with and the server's rules
/// assume. The input is split into names and values at NUL bytes.
///
/// Invariants: what is encoded holds only unreserved characters, `%XX`, `=` and `&`, so no
/// value can add a parameter; and each name and value decodes back to itself.
enum FormEncodingTarget {
    static let target = FuzzTarget(
        name: "form-encoding",
        summary: "names and values encoded with FormEncoding; the output splits and decodes back to them",
        seeds: {
            [
                ["grant_type", "refresh_token", "refresh_token", "rt-1f2e3d", "client_id", "demo-app"],
                ["code", "SplxlOBeZQQYbYS6WxSbIA", "redirect_uri", "tandemdemo://oauth/callback?x=1&y=2", "scope", "orders:read profile"],
                ["name", "é ü €+%=&", "", "empty name"],
            ].map { Data($0.joined(separator: "\u{0}").utf8) }
        },
        run: run
    )

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self) else { return }
        let parts = text.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        let pairs = stride(from: 0, to: parts.count - 1, by: 2).map { (parts[$0], Optional(parts[$0 + 1])) }
        let query = FormEncoding.query(pairs)
        Invariant.expect(String(decoding: FormEncoding.encode(pairs), as: UTF8.self) == query, "the form body and the query differ")
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%=&".utf8)
        Invariant.expect(query.utf8.allSatisfy(allowed.contains), "an encoded form holds a reserved character: \(query)")
        let fields = pairs.isEmpty ? [] : query.split(separator: "&", omittingEmptySubsequences: false)
        Invariant.expect(fields.count == pairs.count, "\(pairs.count) parameters encoded as \(fields.count)")
        for (field, (name, value)) in zip(fields, pairs) {
            let halves = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            Invariant.expect(halves.count == 2 && halves[0].removingPercentEncoding == name && halves[1].removingPercentEncoding == value,
                "\(name)=\(value ?? "") encodes as \(field), which does not decode back")
        }
    }
}
