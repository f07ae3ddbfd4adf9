import Foundation

/// Runs the built `tandem` executable as a separate process, the way a person or a script
/// would, and captures what it prints.
struct TandemProcess {
    /// What one run of `tandem` did.
    struct Outcome {
        /// The exit status.
        var status: Int32
        /// Everything written to standard output.
        var stdout: String
        /// Everything written to standard error.
        var stderr: String
    }

    /// The executable under test.
    let executable: URL

    /// Finds the `tandem` executable built beside the test bundle: `TANDEM_BINARY` if set,
    /// else the products directory (on Linux the test runner itself lives there; on macOS the
    /// `.xctest` bundle does), else `Server/.build/debug/tandem` next to this source file.
    init() throws {
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
            throw LocateError(searched: candidates.map(\.path))
        }
        executable = found
    }

    /// The executable could not be found; the message lists where it was looked for.
    struct LocateError: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "tandem executable not found; searched: \(searched.joined(separator: ", "))" }
    }

    /// Runs `tandem` with `arguments` and waits for it to exit.
    ///
    /// - Parameters:
    ///   - arguments: The command line after `tandem`.
    ///   - stdin: Fed to standard input, which is then closed (empty by default).
    ///   - environment: Added to this process's environment, from which every `TANDEM_*`
    ///     variable is removed first so the caller's shell cannot leak a passcode in.
    func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("stdin")
        let output = scratch.appendingPathComponent("stdout")
        let errors = scratch.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: input)
        for file in [output, errors] { try Data().write(to: file) }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TANDEM_") }
        inherited.merge(environment) { _, new in new }
        process.environment = inherited
        // Files, not pipes: a chatty child can never block on a full pipe nobody reads yet.
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }
}
