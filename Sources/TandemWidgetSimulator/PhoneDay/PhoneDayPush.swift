/// A push APNs delivered to the simulated phone for one mode's app, which the ``PhoneDay``
/// then applies as iOS would: a WidgetKit push reloads the mode's widgets while the widget
/// push budget lasts (``PhoneDaySettings/widgetPushBudget``); a background push runs the host's
/// work for it (``PhoneDayApp/backgroundPush(widgets:protectedDataAvailable:)``) when iOS
/// launches the app for it (``PhoneDaySettings/backgroundPushesPerHour``).
///
/// ```swift
/// let report = await day.run(modes: modes, changeData: { try? await server.publish($0) }) {
///     await apns.sendDue().map { delivery in
///         PhoneDayPush(mode: "pushed", kind: delivery.pushType == "widgets" ? .widgets : .background)
///     }
/// }
/// ```
public struct PhoneDayPush: Hashable, Sendable {
    /// What a push asks of the phone.
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
        /// A WidgetKit push update (`apns-push-type: widgets`): WidgetKit reloads the widgets' timelines.
        case widgets
        /// A background push (`apns-push-type: background`, `content-available`): iOS may launch
        /// the host in the background to fetch what changed.
        case background
    }

    /// The name of the mode whose device it reached (``PhoneDayMode/name``).
    public var mode: String
    /// What it asks.
    public var kind: Kind

    /// A push of `kind` for the app of `mode`.
    public init(mode: String, kind: Kind) {
        self.mode = mode
        self.kind = kind
    }
}
