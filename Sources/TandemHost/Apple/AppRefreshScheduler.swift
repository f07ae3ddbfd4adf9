#if canImport(BackgroundTasks)
import BackgroundTasks
import Foundation
import TandemPlatform

/// `BGTaskScheduler`'s app-refresh task behind ``BackgroundScheduler``: the system runs the
/// background flow when it grants the app time, and its expiration handler cancels the flow,
/// which stops at its next safe point with the vault locked and nothing half-written.
///
/// Create it while the app launches (before `application(_:didFinishLaunchingWithOptions:)`
/// returns), because that is when the system takes the task's registration; give it the work
/// with ``register(_:)`` afterwards. Needs, in the app's Info.plist, `identifier` in
/// `BGTaskSchedulerPermittedIdentifiers` and `fetch` in `UIBackgroundModes`. App extensions
/// cannot register tasks, so the type is unavailable there.
///
/// ```swift
/// let scheduler = AppRefreshScheduler(identifier: "com.example.sales.refresh")   // at launch
/// await scheduler.register { (try? await flow.run(.background, in: context)) != nil }
/// try await scheduler.schedule(earliestBegin: Date(timeIntervalSinceNow: 15 * 60))
/// ```
@available(iOSApplicationExtension, unavailable)
public final class AppRefreshScheduler: BackgroundScheduler {
    /// The task's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// Whether the system accepted the registration (it refuses an identifier missing from
    /// Info.plist, or one registered after launch).
    public let isRegisteredWithSystem: Bool

    /// The registered work, shared with the system's launch handler.
    private let work = Locked<(@Sendable () async -> Bool)?>(nil)

    /// Registers the app-refresh task `identifier` with the system; call it at launch.
    public init(identifier: String) {
        self.identifier = identifier
        let work = work
        isRegisteredWithSystem = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            Self.run(task, work: work.withLock { $0 })
        }
    }

    public func register(_ work: @escaping @Sendable () async -> Bool) async {
        self.work.withLock { $0 = work }
    }

    public func schedule(earliestBegin date: Date) async throws(BackgroundSchedulerError) {
        guard isRegisteredWithSystem, work.withLock({ $0 != nil }) else { throw .notRegistered }
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = date
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            throw .refused("\(error)")
        }
    }

    /// Runs `work` for `task`; the system's expiration cancels it.
    private static func run(_ task: BGTask, work: (@Sendable () async -> Bool)?) {
        guard let work else {
            task.setTaskCompleted(success: false)
            return
        }
        // BGTask is not Sendable; the system allows its completion from any thread.
        nonisolated(unsafe) let task = task
        let running = Task {
            let succeeded = await work()
            task.setTaskCompleted(success: succeeded && !Task.isCancelled)
        }
        task.expirationHandler = { running.cancel() }
    }
}
#endif
