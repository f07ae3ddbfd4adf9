#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds the URL a tap on a widget opens: `scheme://widget/<kind>?family=…&config=…&target=…`.
///
/// Every tap target of a business widget is built here, so the host's `DeepLinkRouter` (TandemHost) can
/// route it and count the tap with its kind, family and configuration:
///
/// ```swift
/// let link = try WidgetLink(scheme: "acme", kind: "orders", family: .systemMedium,
///                           configuration: OrdersConfiguration(destination: "berlin", entitySet: "open"),
///                           target: "order/42")
/// let url = try link.url()   // acme://widget/orders?family=systemMedium&config=eyJk…&target=order/42
/// ```
public struct WidgetLink: Hashable, Sendable {
    /// The host app's URL scheme.
    public var scheme: String
    /// The widget's kind: letters, digits, `-`, `.` and `_`, at most 64.
    public var kind: String
    /// The tapped widget's family.
    public var family: WidgetFamily
    /// The tapped instance's configuration.
    public var configuration: WidgetConfigurationPayload
    /// What was tapped (a row's key, a screen); `nil` for the widget as a whole.
    public var target: String?
    /// Campaign parameters, if any.
    public var campaign: WidgetCampaign?

    /// A link for a tap on a widget of `kind` in `family` configured with `configuration`.
    ///
    /// - Throws: ``DeepLinkError/undecodableConfiguration`` if the configuration does not encode
    ///   as a JSON object.
    public init<Configuration: Encodable>(
        scheme: String, kind: String, family: WidgetFamily, configuration: Configuration,
        target: String? = nil, campaign: WidgetCampaign? = nil
    ) throws(DeepLinkError) {
        self.init(
            scheme: scheme, kind: kind, family: family,
            payload: try WidgetConfigurationPayload(configuration), target: target, campaign: campaign
        )
    }

    /// A link whose configuration is already a payload.
    public init(
        scheme: String, kind: String, family: WidgetFamily, payload: WidgetConfigurationPayload,
        target: String? = nil, campaign: WidgetCampaign? = nil
    ) {
        self.scheme = scheme
        self.kind = kind
        self.family = family
        self.configuration = payload
        self.target = target
        self.campaign = campaign
    }

    /// The same link aimed at `target` (for a row's own link).
    public func targeting(_ target: String?) -> WidgetLink {
        var link = self
        link.target = target
        return link
    }

    /// The route a router makes of this link's URL.
    public var route: DeepLinkRoute {
        .widgetTap(kind: kind, family: family, configuration: configuration, target: target,
                   campaign: campaign?.isEmpty == false ? campaign : nil)
    }

    /// The URL to open on tap.
    ///
    /// - Throws: ``DeepLinkError`` when a part could not be routed back: an invalid kind
    ///   (``DeepLinkError/invalidParameterValue(_:)`` "kind"), a target or campaign value with a
    ///   control character or one of `% & = ? # \`, or a value over ``DeepLinkLimits``'s defaults.
    public func url() throws(DeepLinkError) -> URL {
        guard DeepLinkQuery.isValidKind(kind) else { throw .invalidParameterValue("kind") }
        let limits = DeepLinkLimits()
        var parameters = [("family", family.rawValue), ("config", configuration.base64URL)]
        if configuration.base64URL.utf8.count > limits.maximumConfigurationLength {
            throw .oversizedParameter("config", limit: limits.maximumConfigurationLength)
        }
        if let target { parameters.append(("target", target)) }
        parameters += campaign?.parameters ?? []
        for (name, value) in parameters.dropFirst(2) {
            try DeepLinkQuery.validate(value, name: name)
            if value.utf8.count > limits.maximumValueLength {
                throw .oversizedParameter(name, limit: limits.maximumValueLength)
            }
        }
        return try DeepLinkQuery.url(scheme: scheme, host: "widget", path: "/\(kind)", parameters: parameters)
    }
}
