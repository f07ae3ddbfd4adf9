#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a file, held until ``unlock()`` and released by the
/// system if the process dies. Meant for a few system calls, never across a suspension point.
///
/// ```swift
/// let lock = try FileLock(exclusiveOn: lockPath)
/// defer { lock.unlock() }
/// ```
package struct FileLock: Sendable {
    private let descriptor: Int32

    /// Opens (creating it, `0600`, if needed) the file at `path` and waits for its exclusive lock.
    /// A symbolic link at `path` is not followed, and anything there but a regular file (a named
    /// pipe, a directory) is refused: the lock files live where other processes can write.
    ///
    /// - Throws: ``SystemError`` when the file cannot be opened or locked; `ELOOP` for a link,
    ///   ``SystemError/notRegularFile`` for anything else that is not a regular file.
    package init(exclusiveOn path: String) throws(SystemError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .last }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notRegularFile
        }
        while flock(descriptor, LOCK_EX) != 0 {
            let error = SystemError.last
            guard error.isInterrupted else {
                close(descriptor)
                throw error
            }
        }
        self.descriptor = descriptor
    }

    /// Releases the lock (closing the file releases it).
    package func unlock() {
        close(descriptor)
    }
}
