#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The request files a host has already looked at: each one's path and identity (its inode and
/// modification time), as ``RequestQueue/seen()`` found them.
///
/// A long-running host takes this before each background run and then waits for requests
/// *besides* these, so that a request the run could not fulfil (the user signed out, the server
/// down) or a file that is not a request at all does not wake it again and again. A widget that
/// asks again replaces its file, which gives it a new identity, and wakes the host.
public struct SeenRequests: Sendable, Equatable {
    /// A request file's identity: writing a request replaces the file (an atomic rename), so a
    /// new request never has the identity of the file it replaced.
    struct Identity: Hashable, Sendable {
        var inode: UInt64
        var modified: Date?
    }

    private(set) var files: [String: Identity]

    /// Nothing seen: every request file there counts as new.
    public init() {
        files = [:]
    }

    init(files: [String: Identity]) {
        self.files = files
    }

    /// How many request files were seen.
    public var count: Int { files.count }

    /// Whether `path` with `identity` is one of these.
    func contains(_ path: String, _ identity: Identity) -> Bool {
        files[path] == identity
    }
}
