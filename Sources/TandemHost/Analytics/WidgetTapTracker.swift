import Foundation
import Logging
import TandemWidgetModel

/// Routes a URL the host app was asked to open and, when it is a widget tap, records
/// `widget.tap` with the tap's kind, family, configuration and target (and campaign) in the
/// host's ``Analytics``.
///
/// ```swift
/// let taps = WidgetTapTracker(router: DeepLinkRouter(scheme: "acme"), analytics: analytics)
/// // In the app's URL handler:
/// switch try await taps.open(url) {
/// case .widgetTap(_, _, let configuration, let target, _): show(target, for: configuration)
/// default: …
/// }
/// ```
public struct WidgetTapTracker: Sendable {
    /// The action a tap is recorded as.
    public static let action = "widget.tap"

    /// Parses the URLs.
    public let router: DeepLinkRouter
    /// Where taps are recorded.
    public let analytics: Analytics
    private let logger: Logger

    /// A tracker routing with `router` and recording in `analytics`.
    ///
    /// - Parameter logger: Receives a line when a tap cannot be recorded; the route is returned anyway.
    public init(router: DeepLinkRouter, analytics: Analytics, logger: Logger = Logger(label: "tandem.analytics")) {
        self.router = router
        self.analytics = analytics
        self.logger = logger
    }

    /// The route of `url`; a widget tap is recorded first. Failing to record never fails the route.
    ///
    /// - Throws: `DeepLinkError` when `url` is not one of this app's links (nothing is recorded).
    @discardableResult
    public func open(_ url: URL) async throws(DeepLinkError) -> DeepLinkRoute {
        let route = try router.route(url)
        guard case .widgetTap(let kind, let family, let configuration, let target, let campaign) = route else { return route }
        var data = ["kind": kind, "family": family.rawValue, "configuration": String(decoding: configuration.json, as: UTF8.self)]
        data["target"] = target
        for (name, value) in campaign?.parameters ?? [] { data[name] = value }
        do {
            try await analytics.track(action: Self.action, data: data)
        } catch {
            logger.warning("a widget tap was not recorded", metadata: ["error": "\(error)"])
        }
        return route
    }
}
