import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Something other than a small regular file, planted under a record's name by a process with
/// access to the shared container: every read must take it for absent, promptly.
///
/// ```swift
/// try OddFile.fifo.plant(at: container.url("status"), elsewhere: home)
/// #expect(try await TimeLimit.seconds(5).run { try container.status() } == nil)
/// ```
public enum OddFile: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A named pipe: opening it for reading blocks until a writer comes.
    case fifo
    /// A symbolic link to `/dev/zero`: reading it never ends.
    case linkToDevZero
    /// A symbolic link to a valid record kept outside the container.
    case linkToFileElsewhere
    /// A directory.
    case directory
    /// A sparse regular file of 64 MiB, larger than any record.
    case oversized

    public var description: String { rawValue }

    /// Puts the odd file at `url`, replacing what is there.
    ///
    /// - Parameters:
    ///   - url: The record's file.
    ///   - elsewhere: A directory outside the container, for ``linkToFileElsewhere``'s target.
    ///   - record: What the target of ``linkToFileElsewhere`` holds (a valid record, so that a
    ///     reader following the link would find one).
    public func plant(at url: URL, elsewhere: URL, record: Data = Data()) throws {
        try? FileManager.default.removeItem(at: url)
        switch self {
        case .fifo:
            guard mkfifo(url.path, 0o600) == 0 else { throw TestSetupError("mkfifo \(url.path) failed: errno \(errno)") }
        case .linkToDevZero:
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
        case .linkToFileElsewhere:
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let target = elsewhere.appendingPathComponent("target-\(UUID().uuidString)")
            try record.write(to: target)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target.path)
        case .directory:
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        case .oversized:
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                truncate(url.path, 64 << 20) == 0
            else { throw TestSetupError("cannot make a sparse file at \(url.path)") }
        }
    }

    /// Lets a reader blocked on a planted ``fifo`` at `url` go (it reads end of file), so that a
    /// test that timed out leaves no thread behind. Does nothing for the other cases.
    public func releaseReaders(at url: URL) {
        guard self == .fifo else { return }
        let descriptor = open(url.path, O_WRONLY | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
    }
}
