#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a small file that another process, possibly a hostile one, may have put in place:
/// the file is opened without following a symbolic link and without waiting for a writer (a
/// named pipe), must be a regular file of at most a given size, and exactly that many bytes are
/// read. One `open`, one `fstat`, one `read` for a record.
///
/// ```swift
/// switch try UntrustedFile.read(atPath: path, maximumSize: 64 << 10) {
/// case .missing: return nil
/// case .refused(let why): logger.warning("ignoring \(path): \(why)"); return nil
/// case .contents(let data): return data
/// }
/// ```
package enum UntrustedFile {
    /// What ``read(atPath:maximumSize:)`` found.
    package enum Reading: Sendable, Equatable {
        /// Nothing is there.
        case missing
        /// The file's bytes.
        case contents(Data)
        /// Something is there that is not a small regular file; it was not read.
        case refused(Refusal)
    }

    /// Why an entry was not read.
    package enum Refusal: Sendable, Equatable, CustomStringConvertible {
        /// A symbolic link (never followed).
        case symbolicLink
        /// A named pipe, a directory, a socket or a device.
        case notRegularFile
        /// A regular file larger than allowed.
        case tooLarge(size: Int64, limit: Int)

        package var description: String {
            switch self {
            case .symbolicLink: "a symbolic link"
            case .notRegularFile: "not a regular file"
            case .tooLarge(let size, let limit): "\(size) bytes, more than the \(limit) allowed"
            }
        }
    }

    /// Reads the regular file at `path` if it holds at most `maximumSize` bytes.
    ///
    /// - Throws: ``SystemError`` when the file system fails otherwise (permissions, I/O).
    package static func read(atPath path: String, maximumSize: Int) throws(SystemError) -> Reading {
        // O_NONBLOCK: opening a named pipe would otherwise wait for a writer. It changes nothing
        // for a regular file, the only kind read.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = SystemError.last
            if error.isNoSuchFile { return .missing }
            if error.code == ELOOP { return .refused(.symbolicLink) }
            if error.code == ENXIO || error.code == EISDIR { return .refused(.notRegularFile) }  // a socket; a directory on some systems
            throw error
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .last }
        guard status.st_mode & S_IFMT == S_IFREG else { return .refused(.notRegularFile) }
        let size = Int64(status.st_size)
        guard size <= Int64(maximumSize) else { return .refused(.tooLarge(size: size, limit: maximumSize)) }
        return .contents(try readExactly(Int(size), from: descriptor))
    }

    /// Up to `count` bytes of `descriptor` (fewer if the file was cut meanwhile), retrying after
    /// interruptions.
    private static func readExactly(_ count: Int, from descriptor: Int32) throws(SystemError) -> Data {
        var data = Data(count: count)
        var filled = 0
        var failure: SystemError?
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let got = readFile(descriptor, base + filled, count - filled)
                if got > 0 {
                    filled += got
                } else if got == 0 {
                    return
                } else if errno != EINTR {
                    failure = .last
                    return
                }
            }
        }
        if let failure { throw failure }
        return filled == count ? data : data.prefix(filled)
    }
}

/// The C library's `read`, which the methods named `read` above would otherwise hide.
private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
