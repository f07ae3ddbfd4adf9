import Foundation

/// Finds the `tandem` executable built beside the tests, as `TandemCLITests` does.
enum TandemExecutable {
    /// `TANDEM_BINARY` if set, else the products directory of the running tests, else
    /// `Server/.build/debug/tandem` next to this source file.
    static func locate() throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["TANDEM_BINARY"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("tandem"))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tandem"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem"))
        let serverDirectory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(serverDirectory.appendingPathComponent(".build/debug/tandem"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSetupError("tandem executable not found; searched: \(candidates.map(\.path).joined(separator: ", "))")
        }
        return found
    }

    /// Runs `tandem` with `arguments` to completion.
    ///
    /// - Returns: Exit status, standard output and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "") async throws -> (status: Int32, stdout: String, stderr: String) {
        let scratch = try TemporaryDirectory()
        let input = scratch.url.appendingPathComponent("in"), output = scratch.url.appendingPathComponent("out"), errors = scratch.url.appendingPathComponent("err")
        try Data(stdin.utf8).write(to: input)
        for file in [output, errors] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = try locate()
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TANDEM_") }
        inherited.merge(environment) { _, new in new }
        process.environment = inherited
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), try String(contentsOf: errors, encoding: .utf8))
    }
}
