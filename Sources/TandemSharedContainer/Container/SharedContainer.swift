#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform

/// The directory an app shares with its extensions (the App Group container on Apple
/// platforms, any directory elsewhere), holding only small files written atomically.
///
/// There is deliberately no database here and no lock held for longer than a short
/// ``Lease``: an app suspended while it holds a lock on a file in the shared container is
/// killed by the system (0xdead10cc), and its widgets go blank.
///
/// It holds the session ``status()`` and, each reached through its own view:
/// ``leases`` (cross-process single flight), ``requests`` (data requests for the host),
/// ``snapshots`` (the host's answers), ``events`` (the analytics queue), ``widgets`` (the
/// installed widget instances) and ``sealed`` (sealed records such as the direct-mode grant).
/// Nothing secret is in a plain file: requests are sealed under the ``SharedSealingKey``, snapshots and
/// the grant under a ``ContainerKey``. A damaged, foreign or newer-format file is a typed
/// ``SharedContainerError`` when read alone, and is skipped with a log line when listed with others.
///
/// ```swift
/// let container = try SharedContainer(directory: appGroupURL)
/// try container.setStatus(SessionStatus(state: .ready))   // in the host
/// let status = try container.status()                     // in the widget
/// if let lease = try container.leases.acquire("token-refresh", duration: 10) { … }
/// ```
public struct SharedContainer: Sendable {
    /// The shared directory.
    public let directory: URL
    let logger: Logger

    /// The subdirectories of the layout in DESIGN.md ("Shared container").
    /// (`leases/.staging` holds lease files being written, outside the watched `leases`.)
    static let folders = ["requests", "action-results", "snapshots", "leases", "leases/.staging", "configurations", "events"]

    /// Opens the container at `directory`, creating it and its folders if needed, and removes
    /// the temporary files of writes that a killed process left behind over a minute ago.
    ///
    /// - Parameters:
    ///   - directory: The App Group container (or a directory standing in for it).
    ///   - logger: Receives a line for every damaged record that is skipped; never a secret.
    ///   - clock: The time a leftover's age is measured at.
    public init(directory: URL, logger: Logger = Logger(label: "tandem.container"), clock: any WallClock = SystemClock()) throws(SharedContainerError) {
        self.directory = directory
        self.logger = logger
        do {
            for folder in [""] + Self.folders {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(folder, isDirectory: true), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw .io("cannot create \(directory.path): \(error)")
        }
        removeLeftovers(now: clock.now)
    }

    // MARK: - Session status

    /// Publishes the host's session state for extensions.
    ///
    /// A status without ``SessionStatus/backgroundRefresh`` keeps the one on file: the flows
    /// that write the session's state do not know it; the app says it with
    /// ``setBackgroundRefresh(_:)``.
    public func setStatus(_ status: SessionStatus) throws(SharedContainerError) {
        var status = status
        if status.backgroundRefresh == nil {
            status.backgroundRefresh = (try? self.status())?.backgroundRefresh
        }
        try write(status, kind: "status", to: "status")
    }

    /// Records whether the host gets background time, keeping the rest of the status; does
    /// nothing while there is no status (nobody signed in yet: the widgets have nothing to wait
    /// for) or when it says so already.
    ///
    /// - Returns: Whether the status was written.
    @discardableResult
    public func setBackgroundRefresh(_ availability: BackgroundRefresh) throws(SharedContainerError) -> Bool {
        guard var status = try status(), status.backgroundRefresh != availability else { return false }
        status.backgroundRefresh = availability
        try write(status, kind: "status", to: "status")
        return true
    }

    /// The host's session state, or `nil` when the host never wrote one (treat as signed out).
    ///
    /// - Throws: ``SharedContainerError`` when the status file is damaged, foreign or of a newer format.
    public func status() throws(SharedContainerError) -> SessionStatus? {
        try read(SessionStatus.self, kind: "status", from: "status")
    }
}
