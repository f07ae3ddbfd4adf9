/// Whether iOS gives the host app background time, as the host last saw it: without it, a
/// brokered widget's request waits until the user opens the app, so the widget says so instead
/// of waiting.
public enum BackgroundRefresh: String, Codable, Sendable {
    /// Background App Refresh is on: the host's app-refresh task runs when iOS grants it.
    case available
    /// The user turned Background App Refresh off for the app, or a profile restricts it.
    case off
    /// Low Power Mode is on: iOS runs no app-refresh task until it is off again.
    case lowPowerMode
}
