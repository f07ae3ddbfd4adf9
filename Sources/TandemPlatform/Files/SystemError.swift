#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: its `errno`, which the caller may test, and the C library's message.
///
/// ```swift
/// do {
///     try FileSystem.hardLink(staging, to: lease)
/// } catch let error where error.isAlreadyExisting {
///     return false
/// }
/// ```
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The error of the last failed system call on this thread.
    package static var last: SystemError { SystemError(code: errno) }

    /// The file (or a directory on its path) does not exist (`ENOENT`).
    package var isNoSuchFile: Bool { code == ENOENT }

    /// The file to create already exists (`EEXIST`).
    package var isAlreadyExisting: Bool { code == EEXIST }

    /// The call was interrupted by a signal before it did anything (`EINTR`).
    package var isInterrupted: Bool { code == EINTR }

    /// The operation is not supported here (`ENOTSUP`).
    package static let notSupported = SystemError(code: ENOTSUP)

    /// The entry is not a regular file (a named pipe, a directory, a device) where one must be
    /// (`EFTYPE` has no Linux twin; `EINVAL` stands in).
    package static let notRegularFile = SystemError(code: EINVAL)

    package var description: String { String(cString: strerror(code)) }
}
