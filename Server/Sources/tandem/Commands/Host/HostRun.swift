import ArgumentParser
import Foundation
import Synchronization
import TandemHost
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

    func validate() throws {
        guard interval > 0, allowed > 0 else { throw ValidationError("--interval and --allowed must be positive") }
    }

    func run() async throws {
        let stop = StopSignal()
        let home = try home.hostHome()
        _ = try home.clientConfiguration()
        let restore = HostFlow.context(home: home, presenters: FlowPresenters(passcode: OptionsPasscodePrompt(passcode)))
        try await HostFlow.flow(home: home).run(.restore, in: restore, observer: HostFlow.progress)
        JSONLine.print(["host": "running", "pid": Int(ProcessInfo.processInfo.processIdentifier)])

        let outcomes = Mutex<[FulfilmentOutcome]>([])
        let flow = HostFlow.flow(home: home, snapshotLifetime: lifetime.seconds) { run in outcomes.withLock { $0 += run } }
        let context = HostFlow.context(home: home)
        let scheduler = TimerBackgroundScheduler(allowedDuration: .milliseconds(Int(allowed * 1000)))
        await scheduler.register { (try? await flow.run(.background, in: context, observer: HostFlow.progress)) != nil }

        var runs = 0
        // The request files each run started with: what it left pending (the user signed out, a
        // file that is no request) must not wake the next wait, or the host would spin.
        var seen = SeenRequests()
        while !stop.requested {
            // Nothing new to do: the host waits for a request or its interval, and says so, so a
            // watcher (a test, an operator) knows it has settled instead of guessing from time.
            if !home.container.requests.hasRequestFiles(besides: seen) {
                JSONLine.print(["host": "waiting", "runs": runs])
            }
            guard let trigger = await Self.nextTrigger(home.container, besides: seen, interval: interval, stop: stop) else { break }
            seen = home.container.requests.seen()
            outcomes.withLock { $0.removeAll() }
            let run = await scheduler.runNow()
            runs += 1
            JSONLine.print([
                "run": runs, "trigger": trigger, "result": Self.describe(run),
                "outcomes": outcomes.withLock { $0 }.map(HostFulfil.describe),
            ])
        }
        JSONLine.print(["host": "stopped", "runs": runs])
    }

    /// Waits for a widget's request not in `seen` (`request`), the interval (`timer`) or a stop (`nil`).
    private static func nextTrigger(_ container: SharedContainer, besides seen: SeenRequests, interval: Double, stop: StopSignal) async -> String? {
        await withTaskGroup(of: String?.self) { group in
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

    private static func describe(_ run: BackgroundRun) -> String {
        switch run {
        case .completed(success: true): "completed"
        case .completed(success: false): "failed"
        case .expired: "expired"
        }
    }
}
