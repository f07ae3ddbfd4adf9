#if canImport(Darwin)
import Darwin

/// Reading the kqueue's events.
extension KqueueWatch {
    /// The ident of the user event that interrupts the thread's wait (a new waiter may be due
    /// earlier).
    static let wakeUp: UInt = 0

    /// What a batch of events touched, by ``Watch/id``.
    struct Changes {
        /// The directories written to (an entry created, removed or renamed) or gone.
        var written: Set<UInt> = []
        /// The directories deleted, renamed or unmounted: their watches are dropped, so that
        /// the next waiter on that path opens the directory found there then.
        var gone: Set<UInt> = []

        init(_ events: ArraySlice<kevent>) {
            for event in events where event.filter == Int16(EVFILT_VNODE) {
                let watch = UInt(bitPattern: event.udata)
                written.insert(watch)
                if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE) != 0 { gone.insert(watch) }
            }
        }
    }

    /// An event to add or trigger; `watch` is the ``Watch/id`` its events carry back.
    static func change(_ ident: UInt, filter: Int16, flags: UInt16, fflags: UInt32 = 0, watch: UInt = 0) -> kevent {
        kevent(ident: ident, filter: filter, flags: flags, fflags: fflags, data: 0, udata: UnsafeMutableRawPointer(bitPattern: watch))
    }

    /// Drops the watches in `gone` and returns their descriptors, to be closed once the lock
    /// is released.
    static func forget(_ gone: Set<UInt>, in state: inout State) -> [Int32] {
        guard !gone.isEmpty else { return [] }
        let dropped = state.watches.filter { gone.contains($0.value.id) }
        for path in dropped.keys { state.watches[path] = nil }
        return dropped.values.map(\.descriptor)
    }

    /// Blocks until events arrive or `deadline` has passed, and returns how many arrived (-1
    /// on an error).
    func next(into buffer: inout [kevent], until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return kevent(queue, nil, 0, &buffer, Int32(buffer.count), nil) }
        var timeout = Self.timeout(ContinuousClock.now.duration(to: deadline))
        return kevent(queue, nil, 0, &buffer, Int32(buffer.count), &timeout)
    }

    private static func timeout(_ duration: Duration) -> timespec {
        guard duration > .zero else { return timespec(tv_sec: 0, tv_nsec: 0) }
        // At most an hour: the thread computes it again after, and a far deadline could overflow
        // in the kernel's clock units.
        let (seconds, attoseconds) = min(duration, .seconds(3600)).components
        // Rounded up, so that a waiter is never woken before its deadline and spun again.
        let nanoseconds = Int((attoseconds + 999_999_999) / 1_000_000_000)
        return nanoseconds < 1_000_000_000
            ? timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
            : timespec(tv_sec: Int(seconds) + 1, tv_nsec: 0)
    }
}
#endif
