import Foundation

/// What can go wrong in the shared container. Reading a damaged record never yields garbage:
/// it is one of these errors, and the other records still read.
public enum BridgeError: Error, Sendable, Equatable {
    /// The record exists but is not valid JSON of the expected shape (truncated, random bytes).
    case corrupt(path: String, reason: String)
    /// The record was written by a newer (or unknown) format version.
    case unsupportedVersion(path: String, version: Int)
    /// The file holds another kind of record than the one asked for.
    case foreignRecord(path: String, kind: String)
    /// A name used as a file name is empty or contains characters outside `[A-Za-z0-9._-]`.
    case invalidName(String)
    /// The file system failed (permissions, disk full).
    case io(String)
}

extension BridgeError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .corrupt(let path, let reason): "shared record \(path) is damaged: \(reason)"
        case .unsupportedVersion(let path, let version): "shared record \(path) has unsupported format version \(version)"
        case .foreignRecord(let path, let kind): "shared record \(path) holds a \(kind) record"
        case .invalidName(let name): "invalid record name \(name.debugDescription)"
        case .io(let reason): "shared container I/O failed: \(reason)"
        }
    }
}
