import Foundation
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// The SSO page's QR codes are libqrencode's, and a real reader (zbarimg, from Debian's
/// zbar-tools, which scripts/ensure-deps.sh installs) reads back exactly what was encoded.
@Suite("QR codes")
struct QRCodeTests {
    static let link = "tandem-demo://sso?config=eyJzZXJ2ZXIiOiJodHRwczovL3RhbmRlbS5leGFtcGxlIiwiY2xpZW50X2lkIjoidGFuZGVtLWRlbW8ifQ&passcode=tsp_" + String(repeating: "A", count: 43)

    @Test func aReaderDecodesWhatWasEncoded() async throws {
        let code = try QRCode(encoding: Self.link)
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.modules.count == code.size * code.size)
        #expect(try await Self.decode(code) == Self.link)
    }

    @Test func theThreeFinderPatternsAreWhereTheStandardPutsThem() throws {
        let code = try QRCode(encoding: "tandem")
        #expect(code.version == 1)
        for (left, top) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            // A 7×7 dark ring, a light ring, a 3×3 dark centre.
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = x == 0 || y == 0 || x == 6 || y == 6
                    let centre = (2...4).contains(x) && (2...4).contains(y)
                    #expect(code.isDark(x: left + x, y: top + y) == (ring || centre), "finder at (\(left), \(top)), module (\(x), \(y))")
                }
            }
        }
    }

    @Test func moreTextMakesALargerSymbolAndTooMuchIsATypedError() throws {
        #expect(try QRCode(encoding: Self.link).version > QRCode(encoding: "tandem").version)
        #expect(throws: QRCodeError.tooLong(4000)) { try QRCode(encoding: String(repeating: "x", count: 4000)) }
        #expect(throws: QRCodeError.self) { try QRCode(encoding: "a\u{0}b") }
    }

    @Test func theSVGDrawsEveryDarkModuleInsideItsQuietZone() throws {
        let code = try QRCode(encoding: "tandem")
        let svg = code.svg(label: "Scan <this> with \"Tandem\"")
        #expect(svg.contains(#"viewBox="0 0 29 29""#))
        #expect(svg.contains(#"aria-label="Scan &lt;this> with &quot;Tandem&quot;""#))
        // Every run is "M<x> <y>h<n>v1h-<n>z": add up the modules the path draws.
        let runs = svg.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/)
        #expect(runs.allSatisfy { Int($0.1)! >= 4 && Int($0.2)! >= 4 })
        #expect(runs.reduce(0) { $0 + Int($1.3)! } == code.modules.filter { $0 }.count)
    }

    /// What zbarimg reads from `code` drawn as a plain bitmap.
    static func decode(_ code: QRCode) async throws -> String {
        guard let reader = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestSetupError("zbarimg is not installed: run scripts/ensure-deps.sh (Debian package zbar-tools)")
        }
        let scratch = try TemporaryDirectory()
        let image = scratch.url.appendingPathComponent("code.pbm")
        try Data(code.pbm().utf8).write(to: image)
        let outcome = try await TandemExecutable.run(program: URL(fileURLWithPath: reader), ["--quiet", "--raw", image.path])
        guard outcome.status == 0 else { throw TestSetupError("zbarimg could not read the code: \(outcome.stderr)") }
        return outcome.stdout.trimmingCharacters(in: .newlines)
    }
}
