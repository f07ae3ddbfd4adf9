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
    ///
    /// - Throws: ``SystemError`` when the file cannot be opened or locked.
    package init(exclusiveOn path: String) throws(SystemError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .last }
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
