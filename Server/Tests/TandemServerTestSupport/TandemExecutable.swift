import Foundation
import TandemTestSupport

/// The built `tandem` executable, run as a separate process the way a person or a script would.
///
/// ```swift
/// let outcome = try await TandemExecutable.run(["vault", "status", "--dir", home.path])
/// #expect(outcome.status == 0, "\(outcome.stderr)")
/// ```
public enum TandemExecutable {
    /// What one run of `tandem` did.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
    }

    /// Finds the `tandem` executable built beside the tests: `TANDEM_BINARY` if set, else the
    /// products directory (on Linux the test runner itself lives there; on macOS the `.xctest`
    /// bundle does), else `Server/.build/debug/tandem` in this repository.
    ///
    /// - Parameter name: Another executable of the server package to find the same way (such as
    ///   `tandem-widget`); `TANDEM_BINARY` then names the directory's `tandem`, beside which it is.
    public static func locate(_ name: String = "tandem") throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["TANDEM_BINARY"] {
            let tandem = URL(fileURLWithPath: explicit)
            candidates.append(name == "tandem" ? tandem : tandem.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name))
        let serverPackage = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(serverPackage.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSetupError("\(name) executable not found; searched: \(candidates.map(\.path).joined(separator: ", "))")
        }
        return found
    }

    /// The environment a child gets: this process's, without any `TANDEM_*` variable (so the
    /// caller's shell cannot leak a passcode in), plus `additions`.
    public static func environment(adding additions: [String: String] = [:]) -> [String: String] {
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TANDEM_") }
        inherited.merge(additions) { _, new in new }
        return inherited
    }

    /// Runs `tandem` with `arguments` and waits for it to exit.
    ///
    /// - Parameters:
    ///   - arguments: The command line after `tandem`.
    ///   - stdin: Fed to standard input, which is then closed (empty by default).
    ///   - environment: Added to the child's environment (see ``environment(adding:)``).
    ///   - executable: Which of the server package's executables to run (see ``locate(_:)``).
    /// - Returns: Its exit status, standard output and standard error.
    public static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:], executable: String = "tandem"
    ) async throws -> Outcome {
        try await run(program: try locate(executable), arguments, stdin: stdin, environment: environment)
    }

    /// Runs any program, such as one of the repository's scripts, the way ``run(_:stdin:environment:executable:)``
    /// runs `tandem`, and waits for it to exit.
    public static func run(
        program: URL, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
    ) async throws -> Outcome {
        let scratch = try TemporaryDirectory()
        let input = scratch.url.appendingPathComponent("stdin")
        let output = scratch.url.appendingPathComponent("stdout")
        let errors = scratch.url.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: input)
        for file in [output, errors] { try Data().write(to: file) }

        // Files, not pipes: a chatty child can never block on a full pipe nobody reads yet.
        let child = try await ChildProcess.launch(
            program, arguments, environment: Self.environment(adding: environment), standardInput: input,
            standardOutput: output, standardError: errors)
        let termination = await child.exited()
        return Outcome(
            status: termination.status,
            stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }
}
