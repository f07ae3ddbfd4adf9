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

/// Crash-safe small-file writes: a reader, or a process started after a crash, sees the old
/// content or the new one, never a torn file.
package enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, `fsync`s it, renames it over `url`, and
    /// `fsync`s the directory so the rename itself survives a crash (unless `durable` is
    /// `false`, below).
    ///
    /// - Parameter durable: `false` skips both `fsync`s: readers and a killed process still see
    ///   the old content or the new one, but after a power loss the file may be missing or
    ///   empty. Only for records that are recreated on demand (caches), where the two flushes
    ///   would be most of the write's cost. On Linux such a write also swaps the new file in
    ///   (see ``swapIn(_:over:)``) instead of renaming it over the old one.
    package static func replace(_ url: URL, with data: Data, permissions: mode_t, durable: Bool = true) throws(FileWriteError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw failure("create", temporary) }
        let ok = writeAll(data, to: fd) && (!durable || fsync(fd) == 0)
        let closed = close(fd) == 0
        guard ok, closed, durable ? rename(temporary.path, url.path) == 0 : swapIn(temporary, over: url) else {
            let error = failure("write", url)
            unlink(temporary.path)
            throw error
        }
        if durable { syncDirectory(directory) }
    }

    /// Creates `url`, which must not exist, holding `data`; not flushed, not atomic: for a
    /// private temporary file that is published afterwards (by `link` or `rename`). On failure
    /// nothing is left behind.
    package static func create(_ url: URL, with data: Data, permissions: mode_t) throws(FileWriteError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw failure("create", url) }
        let ok = writeAll(data, to: fd)
        guard close(fd) == 0, ok else {
            let error = failure("write", url)
            unlink(url.path)
            throw error
        }
    }

    /// Puts `temporary` in place of `url`, atomically, without the cost ext4 adds to a rename
    /// over an existing file: where ``FileExchange`` is available and `url` is a regular file,
    /// the two names are exchanged and the previous version, now at the temporary name, is
    /// unlinked. Otherwise it renames. (Why: the TandemSharedContainer article "How the shared container
    /// stays fast and safe".)
    private static func swapIn(_ temporary: URL, over url: URL) -> Bool {
        // Only a regular file is swapped out: a rename over anything else fails, and must.
        var status = stat()
        if FileExchange.isAvailable, lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            (try? FileExchange.exchange(temporary.path, with: url.path)) != nil
        {
            if unlink(temporary.path) == 0 { return true }
            // Not a file after all (replaced since the look): put it back, and fail as a rename would.
            _ = try? FileExchange.exchange(temporary.path, with: url.path)
            return false
        }
        return rename(temporary.path, url.path) == 0
    }

    /// Whether unflushed replacements are swapped in (see ``FileExchange``); otherwise they are
    /// renamed.
    package static var swapsUnflushedReplacements: Bool { FileExchange.isAvailable }

    /// Writes all of `data` to `fd`, retrying after interruptions.
    private static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Flushes a directory's entries (a rename or an unlink) to disk; best effort.
    package static func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func failure(_ action: String, _ url: URL) -> FileWriteError {
        FileWriteError(action: action, file: url.lastPathComponent, reason: .last)
    }
}
