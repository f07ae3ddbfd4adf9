import Foundation

/// Every regular file under `directory`, with its bytes: what a test searches for a secret
/// that must never be written in plain text, or for a file that must not exist.
///
/// ```swift
/// #expect(try regularFiles(under: containerDirectory).allSatisfy { $0.1.range(of: secret) == nil })
/// ```
public func regularFiles(under directory: URL) throws -> [(URL, Data)] {
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    var files: [(URL, Data)] = []
    for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
        files.append((url, try Data(contentsOf: url)))
    }
    return files
}
