import TandemPlatform

/// Whether the simulated phone has been unlocked since it started, which decides whether data
/// protected until first user authentication (class C, the keychain's `AfterFirstUnlock`) can
/// be read. A ``PhoneDay`` sets it; the app's widget and host read it where iOS would refuse
/// them (their secret storage).
public final class DeviceLock: Sendable {
    private let unlocked: Locked<Bool>

    /// A phone unlocked since it started (`true`), or one not unlocked yet.
    public init(unlockedSinceStart: Bool = true) {
        unlocked = Locked(unlockedSinceStart)
    }

    /// Whether class C data can be read.
    public var isProtectedDataAvailable: Bool {
        unlocked.withLock { $0 }
    }

    /// The phone restarted: nothing protected until first unlock can be read.
    public func restart() {
        unlocked.withLock { $0 = false }
    }

    /// The user unlocked the phone.
    public func unlock() {
        unlocked.withLock { $0 = true }
    }
}
