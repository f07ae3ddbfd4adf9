import Foundation
import TandemTestSupport

/// A `tandem` process left running while the test does other things (several of them race),
/// its standard output and error captured in files the test can read at any time.
final class BackgroundTandem: Sendable {
    private let process: Process
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `tandem ARGUMENTS` with every inherited `TANDEM_*` variable removed and
    /// `environment` added.
    init(_ arguments: [String], scratch: URL, environment: [String: String] = [:]) throws {
        let name = UUID().uuidString
        outputFile = scratch.appendingPathComponent("bg-\(name).out")
        errorFile = scratch.appendingPathComponent("bg-\(name).err")
        for file in [outputFile, errorFile] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = try TandemExecutable.locate()
        process.arguments = arguments
        process.environment = TandemExecutable.environment(adding: environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        self.process = process
    }

    /// Whether it is still running.
    var isRunning: Bool { process.isRunning }

    /// Its exit status (meaningful once it stopped).
    var status: Int32 { process.terminationStatus }

    /// What it printed on standard output so far.
    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// What it printed on standard error so far.
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Sends it SIGTERM, as a service manager stopping it would.
    func terminate() { Foundation.kill(process.processIdentifier, SIGTERM) }

    /// Kills it with SIGKILL: no handler runs, nothing is cleaned up, as when the system kills an app.
    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }

    /// Waits until every process in `processes` stopped, killing them all after `timeout`.
    static func waitForAll(_ processes: [BackgroundTandem], timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while processes.contains(where: \.isRunning) {
            if ContinuousClock.now > deadline {
                processes.forEach { $0.kill() }
                throw TestSetupError("tandem processes still running after \(timeout): \(processes.map(\.errors).joined(separator: " | ").suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}
