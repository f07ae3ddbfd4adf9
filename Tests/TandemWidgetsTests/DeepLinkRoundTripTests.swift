import Foundation
import TandemHost
import TandemWidgetModel
import TandemWidgets
import Testing

@Suite("Deep links: round trips")
struct DeepLinkRoundTripTests {
    let router = DeepLinkRouter(scheme: "acme")
    let berlin = OrdersConfiguration(destination: "berlin", entitySet: "open orders/Zürich & more")

    @Test(arguments: WidgetFamily.allCases)
    func aWidgetTapComesBackAsItWasBuilt(family: WidgetFamily) throws {
        let link = try WidgetLink(
            scheme: "acme", kind: "orders", family: family, configuration: berlin, target: "order/42",
            campaign: WidgetCampaign(source: "widget", medium: "home screen", name: "spring-sale")
        )
        let route = try router.route(link.url())
        #expect(route == link.route)
        guard case .widgetTap(let kind, let parsedFamily, let configuration, let target, let campaign) = route else {
            Issue.record("not a widget tap: \(route)")
            return
        }
        #expect(kind == "orders")
        #expect(parsedFamily == family)
        #expect(try configuration.decode(as: OrdersConfiguration.self) == berlin)
        #expect(target == "order/42")
        #expect(campaign?.medium == "home screen")
    }

    @Test func aTapWithoutTargetOrCampaignRoundTrips() throws {
        let link = try WidgetLink(scheme: "acme", kind: "orders.v2", family: .systemSmall, configuration: berlin)
        let url = try link.url()
        #expect(!url.absoluteString.contains("target="))
        #expect(try router.route(url) == link.route)
    }

    @Test func everyRouteRoundTripsThroughTheRouter() throws {
        let payload = try WidgetConfigurationPayload(berlin)
        let routes: [DeepLinkRoute] = [
            .widgetTap(kind: "orders", family: .accessoryInline, configuration: payload, target: "Ünïcødé target ✓", campaign: nil),
            .widgetTap(kind: "orders", family: .systemLarge, configuration: payload, target: nil,
                       campaign: WidgetCampaign(source: "a", medium: "b", name: "c", term: "d", content: "e")),
            .ssoOnboarding(configuration: payload.base64URL),
            .signInCallback(code: "SplxlOBeZQQYbYS6WxSbIA", state: "af0ifjsldkj"),
        ]
        for route in routes {
            #expect(try router.route(router.url(for: route)) == route)
        }
    }

    @Test func theRedirectURIIsConfigurable() throws {
        let custom = DeepLinkRouter(scheme: "acme", redirectHost: "auth", redirectPath: "/done")
        #expect(try custom.route(string: "acme://auth/done?state=s&code=c") == .signInCallback(code: "c", state: "s"))
        #expect(throws: DeepLinkError.unknownRoute("oauth/callback")) {
            try custom.route(string: "acme://oauth/callback?code=c&state=s")
        }
    }

    @Test func schemeAndHostAreCaseInsensitive() throws {
        let link = try WidgetLink(scheme: "acme", kind: "orders", family: .systemSmall, configuration: berlin)
        let shouted = try link.url().absoluteString.replacingOccurrences(of: "acme://widget", with: "ACME://Widget")
        #expect(try router.route(string: shouted) == link.route)
    }

    @Test func linksThatCouldNotBeRoutedBackAreNotBuilt() throws {
        let payload = try WidgetConfigurationPayload(berlin)
        #expect(throws: DeepLinkError.invalidParameterValue("kind")) {
            try WidgetLink(scheme: "acme", kind: "orders/../x", family: .systemSmall, payload: payload).url()
        }
        #expect(throws: DeepLinkError.invalidParameterValue("target")) {
            try WidgetLink(scheme: "acme", kind: "orders", family: .systemSmall, payload: payload, target: "a&b=c").url()
        }
        #expect(throws: DeepLinkError.controlCharacter("target")) {
            try WidgetLink(scheme: "acme", kind: "orders", family: .systemSmall, payload: payload, target: "a\u{0}").url()
        }
        #expect(throws: DeepLinkError.undecodableConfiguration) {
            try WidgetConfigurationPayload([1, 2, 3])
        }
    }
}
