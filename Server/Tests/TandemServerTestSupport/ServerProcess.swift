import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import TandemServer
import TandemTestSupport

/// A `tandem serve` process started by a test, its output captured in files.
public actor ServerProcess {
    /// The base URL it listens on, e.g. `http://127.0.0.1:41234`.
    public nonisolated let baseURL: URL

    private let process: ChildProcess
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `tandem serve` on a free port and waits until it listens.
    ///
    /// - Parameters:
    ///   - database: The `--database` argument, or `nil` for the default location.
    ///   - graceSeconds: The `--grace-seconds` argument.
    ///   - issuer: The `--issuer` argument; `nil` lets the server name its own reachable address,
    ///     for clients that follow the URLs it advertises.
    ///   - scratch: Where its standard output and error are written.
    ///   - environment: Added to the child's environment (every inherited `TANDEM_*` is removed
    ///     first; `TANDEM_SYSTEM_SECRET` is the tests' secret and `TANDEM_METRICS_TOKEN`
    ///     ``metricsToken`` unless given here).
    ///   - arguments: More `tandem serve` options. `--fast-password-hashing` is always given: these
    ///     tests are about the server's behaviour, and a debug build's scrypt at the real cost
    ///     takes seconds of CPU per sign-in.
    ///   - port: The port to listen on; 0 (the default) takes a free one. A test restarting a
    ///     server passes the first one's port.
    /// The token test servers ask `/metrics` scrapers for.
    public static let metricsToken = "tmt_test-metrics-token-of-32-characters"

    /// `GET /metrics` of this server, with its token.
    public func metrics() async throws -> HTTPTestResponse {
        var request = URLRequest(url: baseURL.appendingPathComponent("metrics"))
        request.setValue("Bearer \(Self.metricsToken)", forHTTPHeaderField: "Authorization")
        return try await HTTPTestClient().send(request)
    }

    public init(
        database: String?, graceSeconds: Double, issuer: String? = "https://auth.tandem.test", scratch: URL, environment: [String: String] = [:],
        arguments: [String] = [], port: Int = 0
    ) async throws {
        let name = UUID().uuidString
        outputFile = scratch.appendingPathComponent("serve-\(name).out")
        errorFile = scratch.appendingPathComponent("serve-\(name).err")
        for file in [outputFile, errorFile] { try Data().write(to: file) }
        let arguments = ["serve"] + (database.map { ["--database", $0] } ?? []) + (issuer.map { ["--issuer", $0] } ?? []) + [
            "--port", String(port), "--host", "127.0.0.1", "--grace-seconds", String(graceSeconds), "--fast-password-hashing",
        ] + arguments
        // Every test server seals its keys under the tests' secret unless the test says otherwise.
        let secrets = [SystemSecret.environmentVariable: SystemSecret.testText, "TANDEM_METRICS_TOKEN": Self.metricsToken]
        let process = try await ChildProcess.launch(
            try TandemExecutable.locate(), arguments, environment: TandemExecutable.environment(adding: secrets.merging(environment) { $1 }),
            standardOutput: outputFile, standardError: errorFile)
        self.process = process

        let deadline = ContinuousClock.now + .seconds(60)
        var found: URL?
        while found == nil {
            let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                found = URL(string: String(line.dropFirst("listening on ".count)))
            } else if !process.isRunning {
                let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
                throw TestSetupError("tandem serve exited with status \(process.termination?.status ?? -1): \(errors)")
            } else if ContinuousClock.now > deadline {
                process.signal(SIGTERM)
                throw TestSetupError("tandem serve did not start listening within 60 s")
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let found else { throw TestSetupError("no listening address") }
        baseURL = found
    }

    /// Stops the server with SIGTERM (a graceful shutdown) and waits for it to exit.
    ///
    /// SIGTERM is sent again every 2 s while the server runs. The server prints "listening on"
    /// before swift-service-lifecycle's signal source is certain to be listening (it is set up in
    /// a task of its own), and once, in a clean-clone run on an overloaded machine, a SIGTERM sent
    /// at once went unanswered for 30 s; a service manager would send it again too.
    ///
    /// - Returns: Its exit status.
    @discardableResult
    public func stop() async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        var nextSignal = ContinuousClock.now
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.signal(SIGKILL)
                throw TestSetupError("tandem serve ignored SIGTERM for 30 s")
            }
            if ContinuousClock.now >= nextSignal {
                process.signal(SIGTERM)
                nextSignal = ContinuousClock.now + .seconds(2)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return await process.exited().status
    }

    /// Kills the server with SIGKILL, as a crash or an out-of-memory kill would end it: no
    /// shutdown runs. Returns once it has exited.
    public func kill() async {
        process.signal(SIGKILL)
        _ = await process.exited()
    }

    /// Everything it wrote to standard output and standard error so far.
    public func output() -> String {
        let out = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return out + err
    }
}
