#if canImport(Darwin)
import Darwin
import Foundation

/// ``DirectoryWatch`` on Apple platforms: one kqueue per process with an `EVFILT_VNODE` event on
/// each directory a waiter asked about, and one thread that blocks on it and resumes the waiters
/// whose directory changed or whose time is up. The kqueue, the thread and each directory's
/// descriptor (one per directory, a handful in practice) live as long as the process, like
/// `InotifyWatch`'s watches; a descriptor is closed only when its directory goes away.
///
/// kqueue says that a directory was written to, not which entry changed: every waiter of the
/// directory wakes on any change in it, creations included, and looks again.
final class KqueueWatch: Sendable {
    struct Waiter {
        /// The ``Watch/id`` of the directory waited on.
        let watch: UInt
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// A watched directory. Events name it by `id`, never by its descriptor: a descriptor closed
    /// when its directory went away may be reused before an event already read for it is handled.
    struct Watch {
        let id: UInt
        let descriptor: Int32
    }

    struct State {
        var watches: [String: Watch] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var nextWatch: UInt = 0
        /// The thread has stopped (its wait failed): waiters poll instead.
        var stopped = false
    }

    let queue: Int32
    let state = Locked(State())

    init?() {
        let queue = kqueue()
        guard queue >= 0 else { return nil }
        // A user event rather than a socket pair: it lives in the kqueue itself, so there is no
        // descriptor a process spawned by another thread could inherit.
        var wakeUp = Self.change(Self.wakeUp, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR))
        guard kevent(queue, &wakeUp, 1, nil, 0, nil) == 0 else {
            close(queue)
            return nil
        }
        self.queue = queue
        let thread = Thread { [self] in run() }
        thread.name = "tandem.directory-watch"
        thread.start()
    }

    /// See ``DirectoryWatch/wait(forChangeOf:in:upTo:stillThere:)`` (`name`) and
    /// ``DirectoryWatch/wait(forArrivalIn:upTo:noneYet:)`` (`nil`). `name` is not looked at:
    /// any change in `directory` wakes the waiter.
    func wait(forChangeOf name: String?, in directory: URL, upTo timeout: Duration, stillThere: () -> Bool) async -> Bool {
        let path = directory.path
        guard let watch = watch(path) else { return false }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let registration: Bool? = state.withLock { state in
                    guard !state.stopped else { return nil }
                    // Its directory went away meanwhile (deleted, renamed, unmounted): a change.
                    guard state.watches[path]?.id == watch.id else { return false }
                    state.waiters[id] = Waiter(watch: watch.id, deadline: deadline, continuation: continuation)
                    return true
                }
                guard let registered = registration else { return continuation.resume(returning: false) }
                guard registered else { return continuation.resume(returning: true) }
                // The watch is in place and the waiter registered: a change from now on is
                // seen. One just before is caught by this look; a cancellation just before, here.
                if Task.isCancelled || !stillThere() {
                    resume(id)
                    return
                }
                var trigger = Self.change(Self.wakeUp, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER))
                _ = kevent(queue, &trigger, 1, nil, 0, nil)  // the thread recomputes its timeout
            }
        } onCancel: {
            resume(id)
        }
    }

    /// Resumes the waiter `id` now, if it is still waiting.
    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: true)
    }

    /// The watch of `path`, added on first use.
    private func watch(_ path: String) -> Watch? {
        let (existing, id): (Watch?, UInt) = state.withLock { state in
            if let existing = state.watches[path] { return (existing, existing.id) }
            state.nextWatch += 1
            return (nil, state.nextWatch)
        }
        if let existing { return existing }
        // Outside the lock: opening the path may block (a slow file system), and the thread
        // takes the lock on every pass. O_EVTONLY: the descriptor does not keep the volume from
        // being unmounted.
        let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let fresh = Watch(id: id, descriptor: descriptor)
        var change = Self.change(
            UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
            fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE), watch: fresh.id
        )
        guard kevent(queue, &change, 1, nil, 0, nil) == 0 else {
            close(descriptor)
            return nil
        }
        // Two callers adding the same directory: the first one's watch stays, the other closes.
        let kept = state.withLock { state in
            if let existing = state.watches[path] { return existing }
            state.watches[path] = fresh
            return fresh
        }
        if kept.id != fresh.id { close(descriptor) }
        return kept
    }

    /// The monitor thread: waits for events or the earliest deadline, then resumes who is due.
    private func run() {
        var received: [kevent] = Array(repeating: .init(), count: 64)
        while true {
            let earliest = state.withLock { $0.waiters.values.map(\.deadline).min() }
            let count = next(into: &received, until: earliest)
            if count < 0 && errno != EINTR {
                // Cannot happen with a valid kqueue; should it, nobody is left waiting for a
                // thread that is gone: every waiter returns and falls back to polling.
                let stranded = state.withLock { state in
                    state.stopped = true
                    defer { state.waiters.removeAll() }
                    return Array(state.waiters.values)
                }
                for waiter in stranded { waiter.continuation.resume(returning: false) }
                return
            }
            let changed = Changes(received.prefix(Int(max(0, count))))
            let after = ContinuousClock.now
            let (due, closing): ([Waiter], [Int32]) = state.withLock { state in
                let closing = Self.forget(changed.gone, in: &state)
                let ids = state.waiters.filter { _, waiter in
                    waiter.deadline <= after || changed.written.contains(waiter.watch)
                }.keys
                return (ids.compactMap { state.waiters.removeValue(forKey: $0) }, closing)
            }
            for descriptor in closing { close(descriptor) }
            for waiter in due { waiter.continuation.resume(returning: true) }
        }
    }
}
#endif
