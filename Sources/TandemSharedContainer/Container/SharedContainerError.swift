#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What can go wrong in the shared container. Reading a damaged record never yields garbage:
/// it is one of these errors, and the other records still read.
///
/// ```swift
/// do {
///     let grant = try container.sealed.read(kind: "grant", from: "grant", key: grantKey)
/// } catch .undecryptable {
///     // Written under another share (rotated) or modified: treat as no grant.
/// } catch {
///     logger.warning("grant unreadable: \(error)")
/// }
/// ```
public enum SharedContainerError: Error, Sendable, Equatable {
    /// The record exists but is not valid JSON of the expected shape (truncated, random bytes).
    case corrupt(path: String, reason: String)
    /// The record was written by a newer (or unknown) format version.
    case unsupportedVersion(path: String, version: Int)
    /// The file holds another kind of record than the one asked for.
    case foreignRecord(path: String, kind: String)
    /// A sealed record does not open: it was modified or cut, moved from another path, or
    /// sealed under another key (for example before the paired key was rotated).
    case undecryptable(path: String)
    /// A name used as a file name is empty or contains characters outside `[A-Za-z0-9._-]`.
    case invalidName(String)
    /// A value could not be encoded as JSON (a request key, a record body).
    case unencodable(String)
    /// The record is larger than its kind allows (`size` bytes, at most `limit`): readers would
    /// not read it, so it is not written. Write less, such as one page of a snapshot's data.
    case tooLarge(kind: String, size: Int, limit: Int)
    /// ``SharedLeases/wait(for:duration:timeout:expiryCheckDelay:clock:)`` gave up: the lease was still held.
    case timedOut(lease: String)
    /// The waiting task was cancelled.
    case cancelled
    /// The secret storage shared with the extensions failed, or holds a damaged shared sealing key.
    case secretStorage(String)
    /// The file system failed (permissions, disk full).
    case io(String)
}

extension SharedContainerError: CustomStringConvertible {
    /// What went wrong, in words meant for logs (paths and reasons, never a secret).
    public var description: String {
        switch self {
        case .corrupt(let path, let reason): "shared record \(path) is damaged: \(reason)"
        case .unsupportedVersion(let path, let version): "shared record \(path) has unsupported format version \(version)"
        case .foreignRecord(let path, let kind): "shared record \(path) holds a \(kind) record"
        case .undecryptable(let path): "sealed record \(path) does not open (modified, moved or another key)"
        case .invalidName(let name): "invalid record name \(name.debugDescription)"
        case .unencodable(let reason): "cannot encode a shared record: \(reason)"
        case .tooLarge(let kind, let size, let limit): "a \(kind) record of \(size) bytes is larger than the \(limit) allowed"
        case .timedOut(let lease): "lease \(lease) is still held: waiting timed out"
        case .cancelled: "the wait was cancelled"
        case .secretStorage(let reason): "shared secret storage failed: \(reason)"
        case .io(let reason): "shared container I/O failed: \(reason)"
        }
    }
}
