import Foundation

/// A fresh directory for one test, deleted when the value goes away.
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Its path, for command-line arguments.
    var path: String { url.path }

    /// Creates a new, empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
