import Foundation

/// A fresh directory for one test, deleted when the value goes away.
final class TemporaryDirectory: Sendable {
    /// The directory.
    let url: URL

    /// Creates a new, empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-server-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
