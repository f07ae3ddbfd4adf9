/// A cross-context SSO sign-in waiting to happen: the passcode of a checked SSO link (or QR
/// code) and the name the desktop page will show for this device. Never logged.
public struct SSOSignIn: Sendable, CustomStringConvertible {
    /// The one-time passcode.
    public let passcode: String
    /// What the desktop page shows, such as the phone's name.
    public let deviceLabel: String
    /// How often to ask while the desktop decides.
    public let pollInterval: Duration

    /// A pending SSO sign-in.
    public init(passcode: String, deviceLabel: String, pollInterval: Duration = .seconds(5)) {
        self.passcode = passcode
        self.deviceLabel = deviceLabel
        self.pollInterval = pollInterval
    }

    public var description: String { "SSOSignIn(<redacted>, device: \(deviceLabel))" }
}
