/// Which of an app's three flows is running.
public enum FlowPhase: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The first start: configuration, sign-in, the vault, extension access, settings.
    case onboard
    /// A later start: unlock with the passcode and continue the session, or sign in again.
    case restore
    /// No user present: open the vault through the paired key and serve the extensions.
    case background

    public var description: String { rawValue }
}
