#if canImport(BackgroundTasks)
import BackgroundTasks
import Foundation
import TandemPlatform

/// `BGTaskScheduler`'s app-refresh task behind ``BackgroundScheduler``: the system runs the
/// background flow when it grants the app time, and its expiration handler cancels the flow,
/// which stops at its next safe point with the vault locked and nothing half-written.
///
/// A `BGAppRefreshTaskRequest` is good for one run. With a repeat interval, each run first submits
/// the next request, so background refresh keeps going while the app stays closed; ask again with
/// ``schedule(earliestBegin:)`` when the app moves to the background, too.
///
/// Create it with its work while the app launches (before
/// `application(_:didFinishLaunchingWithOptions:)` returns): that is when the system takes the
/// task's registration, and a background launch runs the handler right after. One scheduler per
/// identifier: a second is refused with ``BackgroundSchedulerError/alreadyRegistered(_:)``, where
/// `BGTaskScheduler` would end the app. Needs, in the app's Info.plist, `identifier` in
/// `BGTaskSchedulerPermittedIdentifiers` and `fetch` in `UIBackgroundModes`. App extensions
/// cannot register tasks, so the type is unavailable there.
///
/// ```swift
/// // In application(_:didFinishLaunchingWithOptions:):
/// let scheduler = try AppRefreshScheduler(identifier: "com.example.sales.refresh", repeatInterval: .seconds(30 * 60)) {
///     (try? await flow.run(.background, in: context)) != nil
/// }
/// // When the app moves to the background:
/// try await scheduler.schedule(earliestBegin: Date(timeIntervalSinceNow: 30 * 60))
/// ```
@available(iOSApplicationExtension, unavailable)
public final class AppRefreshScheduler: BackgroundScheduler {
    /// The task's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// How long after a run starts the next one is asked for; `nil` for one run per request.
    public let repeatInterval: Duration?
    /// Whether the system accepted the registration (it refuses an identifier missing from
    /// Info.plist, or one registered after launch).
    public let isRegisteredWithSystem: Bool

    /// The registered work, shared with the system's launch handler.
    private let work: Locked<(@Sendable () async -> Bool)?>

    /// The identifiers registered in this process: `BGTaskScheduler` raises an exception for a
    /// second registration of one.
    private static let registered = Locked<Set<String>>([])

    /// Registers the app-refresh task `identifier` with the system and `work` with it; call it
    /// while the app launches.
    ///
    /// - Parameters:
    ///   - identifier: The task's identifier, listed in `BGTaskSchedulerPermittedIdentifiers`.
    ///   - repeatInterval: When set, each run first asks for the next run this much later.
    ///   - work: The background flow; it returns whether it succeeded. `nil` registers none yet
    ///     (give it with ``register(_:)``; a run before that completes unsuccessfully).
    /// - Throws: ``BackgroundSchedulerError/alreadyRegistered(_:)`` when this process has a
    ///   scheduler for `identifier` already.
    public init(
        identifier: String, repeatInterval: Duration? = nil, work: (@Sendable () async -> Bool)? = nil
    ) throws(BackgroundSchedulerError) {
        let isNew = Self.registered.withLock { $0.insert(identifier).inserted }
        guard isNew else { throw .alreadyRegistered(identifier) }
        self.identifier = identifier
        self.repeatInterval = repeatInterval
        let work = Locked(work)
        self.work = work
        isRegisteredWithSystem = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            if let repeatInterval {
                // First thing: the request that launched this run is spent. Nothing here can report
                // a refusal (background refresh off, Low Power Mode); the app sees it when next open.
                try? Self.submit(identifier: identifier, earliestBegin: Date().addingTimeInterval(repeatInterval.timeInterval))
            }
            Self.run(task, work: work.withLock { $0 })
        }
    }

    public func register(_ work: @escaping @Sendable () async -> Bool) async {
        self.work.withLock { $0 = work }
    }

    public func schedule(earliestBegin date: Date) async throws(BackgroundSchedulerError) {
        guard isRegisteredWithSystem, work.withLock({ $0 != nil }) else { throw .notRegistered }
        try Self.submit(identifier: identifier, earliestBegin: date)
    }

    /// Asks the system for a run of `identifier` no earlier than `date`.
    private static func submit(identifier: String, earliestBegin date: Date) throws(BackgroundSchedulerError) {
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
