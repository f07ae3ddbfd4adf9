#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A small-file write that did not happen (``AtomicFile``): what it tried, on which file, and
/// the system's reason. Nothing was left behind.
package struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed: `create` or `write`.
    package let action: String
    /// The file's name (not its path: paths may name the user).
    package let file: String
    /// The failed system call.
    package let reason: SystemError

    package var description: String { "cannot \(action) \(file): \(reason)" }
}
