import Foundation
import TandemServerTestSupport
import TandemTestSupport

/// A `tandem` process left running while the test does other things (several of them race),
/// its standard output and error captured in files the test can read at any time.
final class BackgroundTandem: Sendable {
    private let process: ChildProcess
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `tandem ARGUMENTS` with every inherited `TANDEM_*` variable removed and
    /// `environment` added.
    init(_ arguments: [String], scratch: URL, environment: [String: String] = [:]) async throws {
        let name = UUID().uuidString
        outputFile = scratch.appendingPathComponent("bg-\(name).out")
        errorFile = scratch.appendingPathComponent("bg-\(name).err")
        for file in [outputFile, errorFile] { try Data().write(to: file) }
        process = try await ChildProcess.launch(
            try TandemExecutable.locate(), arguments, environment: TandemExecutable.environment(adding: environment),
            standardOutput: outputFile, standardError: errorFile)
    }

    /// Returns once it exited.
    func exited() async { await process.exited() }

    /// Waits until it printed `text` on standard output; throws if it stops first or after
    /// `timeout` (a generous bound, not the expected wait).
    func waitForOutput(containing text: String, timeout: Duration = .seconds(120)) async throws {
        try await waitUntil("printing \(text)", timeout: timeout, details: "\(self.output) \(self.errors.suffix(2000))") {
            if output.contains(text) { return true }
            guard isRunning else { throw TestSetupError("it stopped before printing \(text): \(output) \(errors.suffix(2000))") }
            return false
        }
    }

    /// Whether it is still running.
    var isRunning: Bool { process.isRunning }

    /// Its exit status, or the number of the signal that ended it (`-1` while it runs).
    var status: Int32 { process.termination?.status ?? -1 }

    /// What it printed on standard output so far.
    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// What it printed on standard error so far.
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Sends it SIGTERM, as a service manager stopping it would.
    func terminate() { process.signal(SIGTERM) }

    /// Kills it with SIGKILL: no handler runs, nothing is cleaned up, as when the system kills an app.
    func kill() { process.signal(SIGKILL) }

    /// Waits until every process in `processes` exited, killing them all after `timeout` (a
    /// generous bound, not the expected wait).
    static func waitForAll(_ processes: [BackgroundTandem], timeout: Duration) async throws {
        let allExited = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for process in processes { await process.exited() }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            if !first { processes.forEach { $0.kill() } }
            group.cancelAll()
            await group.waitForAll()
            return first
        }
        guard allExited else {
            throw TestSetupError("tandem processes still running after \(timeout): \(processes.map(\.errors).joined(separator: " | ").suffix(2000))")
        }
    }
}
