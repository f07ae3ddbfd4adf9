#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wakes a task when an entry of a directory goes away (removed, renamed away, or replaced by
/// a rename), instead of letting it poll. One per process, shared by every waiter.
///
/// On Linux it is an ``InotifyWatch``; on Apple platforms a ``KqueueWatch`` (an `EVFILT_VNODE`
/// watch on the directory), which cannot tell entries apart and wakes a directory's waiters on
/// any change in it. Elsewhere ``shared`` is `nil`, and callers poll.
///
/// It is only ever a hint: a caller still looks at the file after every wake-up and on its own
/// schedule, so a missed event (a network file system, an inotify limit reached) costs time,
/// never correctness.
///
/// ```swift
/// if let watch = DirectoryWatch.shared {
///     let watched = await watch.wait(forChangeOf: "refresh.lease", in: leases, upTo: .milliseconds(10)) {
///         FileSystem.exists(atPath: leaseFile.path)
///     }
/// }
/// ```
package struct DirectoryWatch: Sendable {
    /// The process's watch; `nil` where the platform has none or it cannot be set up.
    package static let shared: DirectoryWatch? = DirectoryWatch()

    #if os(Linux)
    private let inotify: InotifyWatch
    #elseif canImport(Darwin)
    private let kqueue: KqueueWatch
    #endif

    private init?() {
        #if os(Linux)
        guard let inotify = InotifyWatch() else { return nil }
        self.inotify = inotify
        #elseif canImport(Darwin)
        guard let kqueue = KqueueWatch() else { return nil }
        self.kqueue = kqueue
        #else
        return nil
        #endif
    }

    /// Returns when the entry `name` of `directory` is removed, renamed away or replaced by a
    /// rename, when `timeout` has passed, when the task is cancelled, or at once when
    /// `stillThere` says the entry is gone once the watch is in place. On Apple platforms, also
    /// when any other entry of `directory` comes, goes or is renamed.
    ///
    /// - Returns: `false` when the directory cannot be watched or the watch has stopped (the
    ///   caller then polls).
    package func wait(forChangeOf name: String, in directory: URL, upTo timeout: Duration, stillThere: () -> Bool) async -> Bool {
        #if os(Linux)
        await inotify.wait(forChangeOf: name, in: directory, upTo: timeout, stillThere: stillThere)
        #elseif canImport(Darwin)
        await kqueue.wait(forChangeOf: name, in: directory, upTo: timeout, stillThere: stillThere)
        #else
        false
        #endif
    }

    /// Returns when an entry arrives in `directory` by a rename (how shared-container records
    /// are written), when `timeout` has passed, when the task is cancelled, or at once when
    /// `noneYet` says one is already there once the watch is in place. On Apple platforms, also
    /// when an entry of `directory` is created or removed in any other way.
    ///
    /// - Returns: `false` when the directory cannot be watched or the watch has stopped (the
    ///   caller then polls).
    package func wait(forArrivalIn directory: URL, upTo timeout: Duration, noneYet: () -> Bool) async -> Bool {
        #if os(Linux)
        await inotify.wait(forChangeOf: nil, in: directory, upTo: timeout, stillThere: noneYet)
        #elseif canImport(Darwin)
        await kqueue.wait(forChangeOf: nil, in: directory, upTo: timeout, stillThere: noneYet)
        #else
        false
        #endif
    }
}
