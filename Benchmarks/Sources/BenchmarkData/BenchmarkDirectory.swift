import Foundation

/// A fresh temporary directory for one benchmark's files, removed by ``remove()``.
public struct BenchmarkDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates `tandem-bench-<label>-<uuid>` in the temporary directory.
    public init(label: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tandem-bench-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file in the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: false) }

    /// Removes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
