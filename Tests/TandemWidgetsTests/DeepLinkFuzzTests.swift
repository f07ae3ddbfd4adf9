import Foundation
import PropertyBased
import TandemHost
import TandemWidgetModel
import TandemWidgets
import Testing

@Suite("Deep links: randomized input")
struct DeepLinkFuzzTests {
    static let router = DeepLinkRouter(scheme: "acme")
    static let validLink = "acme://widget/orders?family=systemMedium&config=\(DeepLinkRejectionTests.config)&target=order/42&utm_source=widget"
    /// Characters that matter to a URL parser, mixed in more often than chance would.
    static let tricky: [Character] = ["%", "&", "=", "?", "#", "/", "\\", ":", "@", "+", " ", "\u{0}", "\n", "2", "5", "F", "0", "é", "✓", "\u{202E}"]

    /// A string of anything: ASCII, Latin-1 (control characters included) and the tricky ones.
    static let anyText = Gen<Character>.oneOf(
        Gen<Character>.ascii.eraseToAnySequence(),
        Gen<Character>.latin1.eraseToAnySequence(),
        Gen<Character?>.element(of: tricky).map { $0 ?? "%" }.eraseToAnySequence()
    ).string(of: 0...120)

    /// A valid link with up to 8 random edits: a character inserted, one removed, or a
    /// parameter repeated.
    static let mutatedLink = zip(
        Gen.int(in: 0...2).array(of: 1...8),
        Gen.int(in: 0...10_000).array(of: 8),
        Gen<Character?>.element(of: tricky).map { $0 ?? "%" }.array(of: 8)
    ).map { edits -> String in
        let (kinds, positions, characters) = edits
        var link = Array(validLink)
        for (index, kind) in kinds.enumerated() {
            let position = positions[index] % (link.count + 1)
            switch kind {
            case 0: link.insert(characters[index], at: position)
            case 1 where !link.isEmpty: link.remove(at: min(position, link.count - 1))
            default: link += Array("&target=x")
            }
        }
        return String(link)
    }

    @Test func arbitraryTextNeverCrashesTheRouter() async {
        await propertyCheck(count: 500, input: Self.anyText) { text in
            Self.expectRoutesOrRefuses(text)
            Self.expectRoutesOrRefuses("acme://widget/orders?target=" + text)
            Self.expectRoutesOrRefuses("acme://" + text)
        }
    }

    @Test func mutatedLinksAreRoutedConsistentlyOrRefused() async {
        await propertyCheck(count: 500, input: Self.mutatedLink) { link in
            Self.expectRoutesOrRefuses(link)
        }
    }

    /// Either `text` routes, and the route's own URL routes to the same route, or it is
    /// refused with a ``DeepLinkError`` (the only error `route(string:)` can throw).
    static func expectRoutesOrRefuses(_ text: String) {
        let route: DeepLinkRoute
        do {
            route = try router.route(string: text)
        } catch {
            let typed: DeepLinkError = error
            _ = typed
            return
        }
        do {
            #expect(try router.route(router.url(for: route)) == route, "rebuilding \(text)")
        } catch {
            Issue.record("\(text) routed to \(route), whose URL does not route back: \(error)")
        }
    }
}
