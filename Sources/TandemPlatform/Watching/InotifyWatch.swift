#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// ``DirectoryWatch`` on Linux: one inotify instance per process, watching each directory a
/// waiter asked about, and one thread that blocks on it and resumes the waiters whose entry
/// changed or whose time is up. Both live as long as the process (why: the TandemSharedContainer
/// article "How the shared container stays fast and safe").
final class InotifyWatch: Sendable {
    struct Waiter {
        let directory: Int32
        /// The entry waited for; `nil` waits for any entry to arrive in the directory.
        let name: String?
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Bool, Never>
    }

    struct State {
        var watches: [String: Int32] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        /// The thread has stopped (its wait failed): waiters poll instead.
        var stopped = false
    }

    let events: Int32
    /// A connected socket pair whose write end interrupts the thread's wait (a new waiter may
    /// be due earlier).
    private let wakeUpRead: Int32
    private let wakeUpWrite: Int32
    let state = Locked(State())

    init?() {
        let events = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard events >= 0 else { return nil }
        // A socket pair rather than a pipe: it is created close-on-exec in one call, so a
        // process spawned meanwhile by another thread never inherits it.
        var ends: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
            close(events)
            return nil
        }
        self.events = events
        wakeUpRead = ends[0]
        wakeUpWrite = ends[1]
        // A POSIX thread of its own (FoundationEssentials has no `Thread`); it holds the watch
        // for as long as it runs. If none can be started, waiters poll instead.
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<InotifyWatch>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<InotifyWatch>.fromOpaque(context).release()
            state.withLock { $0.stopped = true }
            return
        }
        pthread_detach(thread)
    }

    /// See ``DirectoryWatch/wait(forChangeOf:in:upTo:stillThere:)`` (`name`) and
    /// ``DirectoryWatch/wait(forArrivalIn:upTo:noneYet:)`` (`nil`).
    func wait(forChangeOf name: String?, in directory: URL, upTo timeout: Duration, stillThere: () -> Bool) async -> Bool {
        guard let watch = watch(directory.path) else { return false }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let registered = state.withLock { state in
                    guard !state.stopped else { return false }
                    state.waiters[id] = Waiter(directory: watch, name: name, deadline: deadline, continuation: continuation)
                    return true
                }
                guard registered else { return continuation.resume(returning: false) }
                // The watch is in place and the waiter registered: a change from now on is
                // seen. One just before is caught by this look; a cancellation just before, here.
                if Task.isCancelled || !stillThere() {
                    resume(id)
                    return
                }
                var byte: UInt8 = 1
                _ = write(wakeUpWrite, &byte, 1)  // the thread recomputes its timeout
            }
        } onCancel: {
            resume(id)
        }
    }

    /// Resumes the waiter `id` now, if it is still waiting.
    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: true)
    }

    /// The watch descriptor of `path`, added on first use.
    private func watch(_ path: String) -> Int32? {
        if let existing = state.withLock({ $0.watches[path] }) { return existing }
        // Outside the lock: resolving the path may block (a slow file system), and the thread
        // takes the lock on every pass. Two callers adding the same directory get the same
        // descriptor back.
        // Not IN_CREATE: a waiter waits for a lease to go away, and a creation in the directory
        // (the lease it is about to wait for, being taken) would only wake it for nothing.
        let mask = UInt32(IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF)
        let descriptor = inotify_add_watch(events, path, mask)
        guard descriptor >= 0 else { return nil }
        state.withLock { $0.watches[path] = descriptor }
        return descriptor
    }

    /// The monitor thread: waits for events or the earliest deadline, then resumes who is due.
    private func run() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 8192, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let now = ContinuousClock.now
            let earliest = state.withLock { $0.waiters.values.map(\.deadline).min() }
            let timeout: Int32 = earliest.map { Int32(clamping: Self.milliseconds(now.duration(to: $0))) } ?? -1
            var descriptors = [pollfd(fd: events, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeUpRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 && errno != EINTR {
                // Cannot happen with valid descriptors; should it, nobody is left waiting for a
                // thread that is gone: every waiter returns and falls back to polling.
                let stranded = state.withLock { state in
                    state.stopped = true
                    defer { state.waiters.removeAll() }
                    return Array(state.waiters.values)
                }
                for waiter in stranded { waiter.continuation.resume(returning: false) }
                return
            }
            if descriptors[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wakeUpRead, &drained, 64) > 0 {}
            }
            let changed = descriptors[0].revents != 0 ? readEvents(buffer, capacity: 8192) : Changes()
            let after = ContinuousClock.now
            let due: [Waiter] = state.withLock { state in
                let ids = state.waiters.filter { _, waiter in
                    guard !changed.everything, waiter.deadline > after else { return true }
                    guard let name = waiter.name else { return changed.arrivals.contains { $0.directory == waiter.directory } }
                    return changed.entries.contains(Changes.Entry(directory: waiter.directory, name: name))
                }.keys
                return ids.compactMap { state.waiters.removeValue(forKey: $0) }
            }
            for waiter in due { waiter.continuation.resume(returning: true) }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        // Rounded up, so that a waiter is never woken before its deadline and spun again.
        return max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
#endif
