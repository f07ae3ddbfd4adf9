import Foundation
import TandemPlatform

/// The Linux ``BackgroundScheduler``: a timer that runs the registered work no earlier than
/// asked, and cancels it when its allowed time is up, as iOS ends an app-refresh task. Both
/// waits run on its clock.
///
/// ```swift
/// let scheduler = TimerBackgroundScheduler(allowedDuration: .seconds(30))
/// await scheduler.register { (try? await backgroundFlow.run(.background, in: context)) != nil }
/// try await scheduler.schedule(earliestBegin: Date().addingTimeInterval(15 * 60))
/// ```
public actor TimerBackgroundScheduler: BackgroundScheduler {
    private let allowedDuration: Duration
    /// When set, each run first asks for the next one this much later.
    private let repeatInterval: Duration?
    private let clock: any WallClock
    private var work: (@Sendable () async -> Bool)?
    private var pending: Task<Void, Never>?
    private var runs: [BackgroundRun] = []

    /// A scheduler that gives each run `allowedDuration` (iOS grants an app refresh about 30 s).
    ///
    /// - Parameters:
    ///   - allowedDuration: How long a run may take before it is cancelled.
    ///   - repeatInterval: When set, each run first asks for the next run this much later, as
    ///     ``AppRefreshScheduler`` does on a phone; `nil`, a request is good for one run.
    ///   - clock: What the earliest begin and the allowed time are measured on; a `ManualClock`
    ///     in tests.
    public init(allowedDuration: Duration = .seconds(30), repeatInterval: Duration? = nil, clock: any WallClock = SystemClock()) {
        self.allowedDuration = allowedDuration
        self.repeatInterval = repeatInterval
        self.clock = clock
    }

    public func register(_ work: @escaping @Sendable () async -> Bool) {
        self.work = work
    }

    public func schedule(earliestBegin date: Date) throws(BackgroundSchedulerError) {
        guard work != nil else { throw .notRegistered }
        pending?.cancel()
        let clock = clock
        pending = Task { [weak self] in
            do {
                try await clock.sleep(until: date)
            } catch {
                return
            }
            _ = await self?.runNow()
        }
    }

    /// Runs the registered work now, within the allowed time, and records how it ended. The
    /// command-line host also calls it when a widget writes a request.
    @discardableResult
    public func runNow() async -> BackgroundRun {
        guard let work else { return .completed(success: false) }
        if let repeatInterval {
            // First thing, as on a phone: a run that expires or crashes still has a successor.
            try? schedule(earliestBegin: clock.now.addingTimeInterval(repeatInterval.timeInterval))
        }
        let expired = Locked(false)
        let task = Task { await work() }
        let allowed = allowedDuration
        let clock = clock
        let timer = Task {
            try? await clock.sleep(for: allowed)
            guard !Task.isCancelled else { return }
            expired.withLock { $0 = true }
            task.cancel()
        }
        let success = await task.value
        timer.cancel()
        let run: BackgroundRun = expired.withLock { $0 } ? .expired : .completed(success: success)
        runs.append(run)
        return run
    }

    /// Every run so far, oldest first.
    public var history: [BackgroundRun] { runs }

    /// Cancels the pending request, if any (the work of a run already started goes on).
    public func cancelPending() {
        pending?.cancel()
        pending = nil
    }
}
