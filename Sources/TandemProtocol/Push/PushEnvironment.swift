/// Which APNs environment a push token belongs to: development builds get `sandbox` tokens, App
/// Store and TestFlight builds `production` ones, and each is only valid at its own APNs host.
public enum PushEnvironment: String, Codable, Sendable, CaseIterable {
    /// APNs' development environment.
    case sandbox
    /// APNs' production environment.
    case production
}
