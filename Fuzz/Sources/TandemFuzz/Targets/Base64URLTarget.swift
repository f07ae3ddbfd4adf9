import Foundation
import TandemProtocol

/// base64url (`Sources/TandemProtocol/Encoding/Base64URL.swift`), which both sides decode from
/// attacker text: PKCE verifiers, SSO links, widget configurations in deep links.
///
/// Invariants: text that decodes is the canonical encoding of what it decodes to (padding
/// aside), so no two texts decode to the same bytes; and any bytes encode to text that decodes
/// to them.
enum Base64URLTarget {
    static let target = FuzzTarget(
        name: "base64url",
        summary: "text decoded with Base64URL.decode; what decodes is canonical, and any bytes round-trip",
        seeds: {
            [Data(), Data("f".utf8), Data("fo".utf8), Data("foo".utf8), Data([0xFB, 0xFF, 0x00, 0x3E])]
                .map { Data(Base64URL.encode($0).utf8) } + [Data("Zm9vYg==".utf8)]
        },
        run: run
    )

    static func run(_ input: Data) {
        let encoded = Base64URL.encode(input)
        Invariant.expect(Base64URL.decode(encoded) == input, "\(input.count) bytes do not round-trip through base64url")
        guard let text = String(validating: input, as: UTF8.self), let decoded = Base64URL.decode(text) else { return }
        var unpadded = Substring(text)
        while unpadded.hasSuffix("=") { unpadded = unpadded.dropLast() }
        Invariant.expect(Base64URL.encode(decoded) == unpadded, "\(text) decodes, but is not the encoding of what it decodes to")
    }
}
