import Foundation

/// A fresh directory for one test, deleted when the value goes away.
///
/// ```swift
/// let home = try TemporaryDirectory()
/// try Data("x".utf8).write(to: home.url.appendingPathComponent("file"))
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Its path, for command-line arguments.
    public var path: String { url.path }

    /// Creates a new, empty directory under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
