/// The largest file each kind of record may be, in bytes. A reader refuses a larger file
/// without reading it (it reads as absent, with a log line), and a writer refuses to write a
/// larger record (``SharedContainerError/tooLarge(kind:size:limit:)``), so that the two always agree.
/// The figures, and why: the TandemSharedContainer article "How the shared container stays fast and safe".
enum RecordSizeLimit {
    /// The limit for records of `kind`.
    static func bytes(forKind kind: String) -> Int {
        switch kind {
        case "lease": 4 << 10
        case "status": 16 << 10
        case "request", "event", "configuration", "grant": 64 << 10
        case "snapshot": 8 << 20
        default: 1 << 20
        }
    }
}
