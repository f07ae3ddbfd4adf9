import Foundation

/// Runs the background flow when the system grants the app time: `BGTaskScheduler`'s app-refresh
/// task on a phone (the platform issue's adapter), a timer on Linux
/// (``TimerBackgroundScheduler``).
///
/// The system, not the app, decides when the work runs (no earlier than asked) and how long it
/// may take. A request is good for one run: a scheduler made with a repeat interval asks for the
/// next run first thing in each run, so background refresh keeps going while the app stays
/// closed; the app also asks again when it moves to the background. When the time is up the scheduler cancels the work's task: the flow stops at its
/// next safe point, locks the vault and leaves nothing half-written.
public protocol BackgroundScheduler: Sendable {
    /// Registers what runs in background time, once at launch; `work` returns whether it
    /// succeeded.
    func register(_ work: @escaping @Sendable () async -> Bool) async

    /// Asks for background time no earlier than `date`, replacing an earlier request.
    ///
    /// - Throws: ``BackgroundSchedulerError/notRegistered`` before ``register(_:)``.
    func schedule(earliestBegin date: Date) async throws(BackgroundSchedulerError)
}

/// Why a background run could not be scheduled.
public enum BackgroundSchedulerError: Error, Sendable, Equatable {
    /// Nothing was registered to run.
    case notRegistered
    /// The system refused the request (on a phone: background refresh is off, or too many
    /// requests are pending), with its reason.
    case refused(String)
    /// A scheduler for this task identifier exists already in this process; there is one per
    /// identifier (on a phone a second registration would end the app).
    case alreadyRegistered(String)
}
