#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls the SDK makes by path, each one system call that either happens
/// atomically or not at all, with its failure as a typed ``SystemError``.
///
/// ```swift
/// try FileSystem.removeIfPresent(atPath: lease.path)
/// ```
package enum FileSystem {
    /// Removes the directory entry `path` (`unlink`).
    ///
    /// - Throws: ``SystemError``, ``SystemError/isNoSuchFile`` when there is nothing there.
    package static func remove(atPath path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw .last }
    }

    /// Removes the directory entry `path`; a missing one is not an error.
    package static func removeIfPresent(atPath path: String) throws(SystemError) {
        do {
            try remove(atPath: path)
        } catch where error.isNoSuchFile {
            return
        }
    }

    /// Gives the file at `source` a second name, `destination`, which must not exist (`link`).
    ///
    /// - Throws: ``SystemError``, ``SystemError/isAlreadyExisting`` when `destination` exists.
    package static func hardLink(_ source: String, to destination: String) throws(SystemError) {
        guard link(source, destination) == 0 else { throw .last }
    }

    /// Moves the entry `source` to `destination`, replacing what is there (`rename`).
    package static func move(_ source: String, to destination: String) throws(SystemError) {
        guard rename(source, destination) == 0 else { throw .last }
    }

    /// Whether an entry named `path` exists, without opening or reading it (`access`).
    package static func exists(atPath path: String) -> Bool {
        access(path, F_OK) == 0
    }
}

