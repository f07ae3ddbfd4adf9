#if os(Linux)

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading the inotify instance's events.
extension InotifyWatch {
    /// What a batch of inotify events touched.
    struct Changes {
        struct Entry: Hashable {
            let directory: Int32
            let name: String
        }
        var entries: Set<Entry> = []
        /// The entries that arrived by a rename (how every shared-container record is written).
        var arrivals: Set<Entry> = []
        /// An overflow or a removed directory: every waiter should look again.
        var everything = false
    }

    func readEvents(_ buffer: UnsafeMutableRawPointer, capacity: Int) -> Changes {
        var changes = Changes()
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = read(events, buffer, capacity)
            guard count > 0 else { return changes }
            var offset = 0
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                if event.mask & UInt32(IN_DELETE_SELF | IN_IGNORED | IN_Q_OVERFLOW) != 0 {
                    changes.everything = true
                    if event.mask & UInt32(IN_IGNORED) != 0 { forget(event.wd) }
                } else if event.len > 0 {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: Int(event.len))
                    let entry = Changes.Entry(directory: event.wd, name: String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
                    changes.entries.insert(entry)
                    if event.mask & UInt32(IN_MOVED_TO) != 0 { changes.arrivals.insert(entry) }
                }
                offset += header + Int(event.len)
            }
        }
    }

    /// Drops a watch the kernel removed (its directory was deleted), so that the next waiter
    /// on that path adds a new one.
    func forget(_ descriptor: Int32) {
        state.withLock { state in
            state.watches = state.watches.filter { $0.value != descriptor }
        }
    }
}
#endif
