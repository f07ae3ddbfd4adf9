/// Whether a record in the shared container must survive a power loss.
///
/// Every record is written atomically (temporary file, then `rename`, or for a cache record on
/// Linux an exchange of names): readers, and a process killed mid-write, see the old record or
/// the new one. A ``durable`` record is also flushed (`fsync` of
/// the file and of its folder) before the write returns. Records that are recreated on demand —
/// a widget's data request, the snapshot that answers it — are ``cache`` records: after a power
/// loss they may be missing or read as damaged (which reads as "none"), and the widget asks
/// again. The flushes would otherwise be most of a brokered round trip's cost.
enum RecordDurability: Sendable {
    /// Flushed to disk before the write returns: the session status, the extension grant, queued
    /// analytics events, widget configurations.
    case durable
    /// Atomic but not flushed: requests and snapshots.
    case cache
}
