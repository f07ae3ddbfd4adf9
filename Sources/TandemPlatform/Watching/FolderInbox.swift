#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A folder other processes drop files into, and a way to wait for the next one without
/// polling: what a device's push deliveries look like on Linux, where the local APNs stand-in
/// writes each accepted notification as a file (on iOS the system hands pushes to the app and
/// to WidgetKit instead).
///
/// Files whose names start with a dot are being written (a temporary file before its rename)
/// and do not count.
///
/// ```swift
/// let inbox = FolderInbox(directory: deviceFolder.appendingPathComponent("inbox"))
/// var seen = inbox.names()
/// while await inbox.waitForArrival(besides: seen, upTo: .seconds(900)) {
///     seen = inbox.names()   // … and run what a push triggers
/// }
/// ```
public struct FolderInbox: Sendable {
    /// The folder.
    public let directory: URL

    /// The inbox in `directory` (created when missing, `0700`, on first wait).
    public init(directory: URL) {
        self.directory = directory
    }

    /// The names of the files there now.
    public func names() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.filter { !$0.hasPrefix(".") })
    }

    /// Returns `true` as soon as a file not in `seen` is there, `false` when `timeout` passed
    /// (or the task was cancelled) first. Woken by the directory watch where there is one,
    /// else it looks every `pollInterval`.
    public func waitForArrival(
        besides seen: Set<String>, upTo timeout: Duration, pollInterval: Duration = .milliseconds(250),
        clock: any WallClock = SystemClock()
    ) async -> Bool {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
        while !Task.isCancelled {
            if !names().subtracting(seen).isEmpty { return true }
            let remaining = deadline.timeIntervalSince(clock.now)
            guard remaining > 0 else { return false }
            let step = min(pollInterval, .seconds(remaining))
            if let watch = DirectoryWatch.shared,
               await watch.wait(forArrivalIn: directory, upTo: step, noneYet: { names().subtracting(seen).isEmpty }) {
                continue
            }
            try? await clock.sleep(for: step)
        }
        return false
    }
}
