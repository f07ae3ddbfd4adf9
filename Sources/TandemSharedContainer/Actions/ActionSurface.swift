/// Where the user asked for an action: analytics count actions by it.
public enum ActionSurface: String, Codable, Hashable, Sendable, CaseIterable {
    /// A button in a Home Screen or Lock Screen widget (`Button(intent:)`).
    case widget
    /// A control in Control Center or on the Lock Screen (`ControlWidgetButton`).
    case control
    /// Siri, Spotlight or the Shortcuts app (an App Shortcut).
    case shortcut
    /// The app itself, in the foreground.
    case app
}
