import ArgumentParser
import Foundation
import Synchronization
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemTool

/// `tandem host run`: the host app as a long-running process. It restores (the passcode opens
/// the vault, the session is confirmed, the widgets re-armed if they need it), then runs the
/// background flow on its scheduler: every `--interval` seconds, and as soon as a widget writes a
/// request (an inotify watch on Linux). Each run may take `--allowed` seconds, as iOS grants an
/// app refresh; then it is cancelled at its next safe point.
///
/// SIGINT or SIGTERM stops it: a background run in progress finishes (nothing is left
/// half-written: a request is completed with its snapshot, or still pending), then the process
/// prints a summary and exits 0. Prints one JSON line when running, one per run, one each time
/// it goes back to waiting with nothing new to do (`{"host":"waiting","runs":N}`), one at the end.
struct HostRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run as the host app: restore, then the background flow on a timer and on each widget request, until SIGTERM.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var lifetime: SnapshotLifetimeOptions
    @OptionGroup var passcode: PasscodeOptions

    @Option(name: .long, help: "Seconds between scheduled background runs.")
    var interval: Double = 15 * 60

    @Option(name: .long, help: "Seconds a background run may take before it is cancelled.")
    var allowed: Double = 30

    @Option(name: .long, help: "Take pushes from the APNs stand-in (tandem apns-standin) whose devices folder this is: register the host's and the widgets' push tokens, and run the background flow on each push.")
    var apnsDevices: String?

    func validate() throws {
        guard interval > 0, allowed > 0 else { throw ValidationError("--interval and --allowed must be positive") }
    }

    func run() async throws {
        let stop = StopSignal()
        let home = try home.hostHome()
        _ = try home.clientConfiguration()
        let pushDevice = try apnsDevices.map { try HostFlow.pushDevice(home: home, devices: $0) }
        let restore = HostFlow.context(home: home, presenters: FlowPresenters(passcode: OptionsPasscodePrompt(passcode)))
        try await HostFlow.flow(home: home, pushDevice: pushDevice).run(.restore, in: restore, observer: HostFlow.progress)
        var running: [String: Any] = ["host": "running", "pid": Int(ProcessInfo.processInfo.processIdentifier)]
        if let pushDevice { running["push_token"] = Hex.encode(pushDevice.token) }
        JSONLine.print(running)

        let outcomes = Mutex<[FulfilmentOutcome]>([])
        let actions = Mutex<[ActionExecutionOutcome]>([])
        let flow = HostFlow.flow(
            home: home, snapshotLifetime: lifetime.seconds, pushDevice: pushDevice, onFulfilment: { run in outcomes.withLock { $0 += run } },
            onActions: { run in actions.withLock { $0 += run } })
        let context = HostFlow.context(home: home)
        let scheduler = TimerBackgroundScheduler(allowedDuration: .milliseconds(Int(allowed * 1000)))
        await scheduler.register { (try? await flow.run(.background, in: context, observer: HostFlow.progress)) != nil }

        var runs = 0
        // The request files each run started with: what it left pending (the user signed out, a
        // file that is no request) must not wake the next wait, or the host would spin.
        var seen = SeenRequests()
        var seenPushes = pushDevice?.inbox.names() ?? []
        // The widgets' token the last run started with (registered by it, if the host takes pushes).
        var seenWidgetsToken = home.container.widgetPushToken.fingerprint()
        while !stop.requested {
            // Nothing new to do: the host waits for a request or its interval, and says so, so a
            // watcher (a test, an operator) knows it has settled instead of guessing from time.
            if !home.container.requests.hasRequestFiles(besides: seen) {
                JSONLine.print(["host": "waiting", "runs": runs])
            }
            guard let trigger = await Self.nextTrigger(
                home.container, besides: seen, pushes: pushDevice.map { ($0.inbox, seenPushes, seenWidgetsToken) }, interval: interval, stop: stop)
            else { break }
            seen = home.container.requests.seen()
            seenWidgetsToken = home.container.widgetPushToken.fingerprint()
            if trigger == "push", let pushDevice {
                // A background push says the server's data changed: rows fetched before now are old.
                seenPushes = pushDevice.inbox.names()
                context.contentChangedAt = Date()
            }
            outcomes.withLock { $0.removeAll() }
            actions.withLock { $0.removeAll() }
            let run = await scheduler.runNow()
            runs += 1
            var line: [String: Any] = [
                "run": runs, "trigger": trigger, "result": Self.describe(run),
                "outcomes": outcomes.withLock { $0 }.map(HostFulfil.describe),
            ]
            let executed = actions.withLock { $0 }
            if !executed.isEmpty { line["actions"] = executed.map(Self.describe) }
            JSONLine.print(line)
        }
        JSONLine.print(["host": "stopped", "runs": runs])
    }

    /// Waits for a widget's request not in `seen` (`request`), a push not among those seen
    /// (`push`), a widgets' push token other than the one seen (`push-token`), the interval
    /// (`timer`) or a stop (`nil`).
    private static func nextTrigger(
        _ container: SharedContainer, besides seen: SeenRequests, pushes: (inbox: FolderInbox, seen: Set<String>, widgetsToken: String?)?,
        interval: Double,
        stop: StopSignal
    ) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            if let pushes {
                group.addTask {
                    await pushes.inbox.waitForArrival(besides: pushes.seen, upTo: .milliseconds(Int(interval * 1000))) ? "push" : "timer"
                }
                // A new widgets' push token is registered at once, as an app does when its
                // extension hands one over.
                group.addTask {
                    let record = container.widgetPushToken
                    let before = pushes.widgetsToken
                    let deadline = Date().addingTimeInterval(interval)
                    while record.fingerprint() == before, Date() < deadline {
                        guard (try? await Task.sleep(for: .milliseconds(250))) != nil else { return nil }
                    }
                    return record.fingerprint() == before ? "timer" : "push-token"
                }
            }
            group.addTask {
                await container.requests.waitForRequests(upTo: .milliseconds(Int(interval * 1000)), besides: seen) ? "request" : "timer"
            }
            group.addTask {
                await stop.wait()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return stop.requested ? nil : first
        }
    }

    /// One widget action as the run line lists it: the request, the item, the action and how it
    /// ended (`pending` when it waits for a later run).
    static func describe(_ action: ActionExecutionOutcome) -> [String: Any] {
        var line: [String: Any] = ["request": String(action.id.prefix(12)), "outcome": action.outcome?.name ?? "pending"]
        if case .refused(let reason) = action.outcome { line["reason"] = reason.rawValue }
        if let draft = action.draft {
            line["item"] = draft.item
            line["action"] = draft.action.rawValue
        }
        return line
    }

    private static func describe(_ run: BackgroundRun) -> String {
        switch run {
        case .completed(success: true): "completed"
        case .completed(success: false): "failed"
        case .expired: "expired"
        }
    }
}
