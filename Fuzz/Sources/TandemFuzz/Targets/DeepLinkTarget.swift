import Foundation
import TandemHost
import TandemProtocol
import TandemWidgetModel

/// Deep links (`Sources/TandemHost/DeepLinks/`): any app or web page may open a URL in the
/// app's scheme, and the host routes it with `DeepLinkRouter.route(string:)`.
///
/// Invariant: a route the router accepts is built back into a link with `url(for:)`, and that
/// link routes to the same route.
enum DeepLinkTarget {
    static let router = DeepLinkRouter(scheme: "tandemdemo")

    static let target = FuzzTarget(
        name: "deep-link",
        summary: "a URL routed with DeepLinkRouter.route(string:); what routes is built again and routes the same",
        seeds: {
            let payload = SSOOnboardingPayload(
                server: "https://tandem.example", clientID: "demo-app", redirectURI: "tandemdemo://oauth/callback",
                passcode: "K7Q2-M9XD", expiresAt: 1_800_000_600)
            let config = String(payload.link(scheme: "tandemdemo").split(separator: "=", maxSplits: 1).last ?? "")
            let routes: [DeepLinkRoute] = [
                .signInCallback(code: "SplxlOBeZQQYbYS6WxSbIA", state: "af0ifjsldkj"),
                .ssoOnboarding(configuration: config),
            ]
            var links = routes.compactMap { try? router.url(for: $0).absoluteString }
            let tap = try? WidgetLink(
                scheme: "tandemdemo", kind: "orders", family: .systemMedium, configuration: ["destination": "orders", "page": "1"],
                target: "order-1042", campaign: WidgetCampaign(source: "widget", medium: "home-screen", name: "launch")
            ).url()
            links += tap.map { [$0.absoluteString] } ?? []
            return links.map { Data($0.utf8) }
        },
        run: run
    )

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self), let route = try? router.route(string: text) else { return }
        let link: URL
        do {
            link = try router.url(for: route)
        } catch {
            Invariant.expect(false, "the route of \(text) cannot be built into a link: \(error)")
            return
        }
        let again = try? router.route(link)
        Invariant.expect(again == route, "\(text) routes to \(route), but its rebuilt link \(link) routes to \(String(describing: again))")
    }
}
