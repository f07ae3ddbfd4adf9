/// The escalating delay after failed sign-ins to one account (from one address, or from all of
/// them together, as `BrowserSignIn` counts).
///
/// The first ``freeFailures`` failures cost nothing; after that each further attempt must wait
/// ``firstDelay`` after the last failure, doubling with every failure up to ``maximumDelay``.
/// A success clears the count, and failures older than ``memory`` are forgotten. The count lives
/// in the database, so every server instance applies the same delay.
///
/// ```swift
/// var throttle = SignInThrottle()          // 5 free, then 30 s doubling up to 15 min
/// throttle.maximumDelay = .seconds(3600)
/// ```
public struct SignInThrottle: Sendable, Hashable {
    /// Failures allowed before any delay.
    public var freeFailures: Int
    /// The delay after the first failure beyond ``freeFailures``.
    public var firstDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration
    /// How long a failure is remembered when no other follows.
    public static let memory: Duration = .seconds(24 * 3600)

    /// Creates a throttle; the defaults allow five mistakes, then 30 s doubling up to 15 minutes.
    public init(freeFailures: Int = 5, firstDelay: Duration = .seconds(30), maximumDelay: Duration = .seconds(15 * 60)) {
        self.freeFailures = max(freeFailures, 0)
        self.firstDelay = max(firstDelay, .milliseconds(1))
        self.maximumDelay = max(maximumDelay, self.firstDelay)
    }

    /// The delay owed after `failures` failures in a row.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures >= freeFailures else { return .zero }
        let doublings = min(failures - freeFailures, 32)
        let delay = firstDelay * (1 << doublings)
        return min(delay, maximumDelay)
    }

    /// The whole seconds to wait before the next attempt, or `nil` when it may go ahead.
    func retryAfterSeconds(_ failures: SignInFailures?, now: Timestamp) -> Int? {
        guard let failures, failures.lastFailureAt.adding(Self.memory) > now else { return nil }
        let until = failures.lastFailureAt.adding(delay(afterFailures: failures.count))
        let remaining = until.milliseconds - now.milliseconds
        guard remaining > 0 else { return nil }
        return Int((remaining + 999) / 1000)
    }
}
