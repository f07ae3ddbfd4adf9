/// Where an incoming URL leads, as `DeepLinkRouter` (TandemHost) parsed it.
public enum DeepLinkRoute: Hashable, Sendable {
    /// A tap on a widget (`scheme://widget/<kind>?family=…&config=…&target=…`).
    ///
    /// - Parameters:
    ///   - kind: The widget's kind.
    ///   - family: The family that was tapped.
    ///   - configuration: The instance's configuration; decode it as the kind's type.
    ///   - target: What was tapped (a row's key, a screen); `nil` for the widget as a whole.
    ///   - campaign: The `utm_*` parameters, if any.
    case widgetTap(kind: String, family: WidgetFamily, configuration: WidgetConfigurationPayload, target: String?, campaign: WidgetCampaign?)
    /// Cross-context SSO onboarding (`scheme://onboard?config=…`): `configuration` is the
    /// base64url JSON payload, for TandemAuth's link configuration provider to decode.
    case ssoOnboarding(configuration: String)
    /// The OAuth redirect after sign-in, with the authorization `code` and the `state` to check.
    case signInCallback(code: String, state: String)
}
