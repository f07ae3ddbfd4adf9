import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// A seeded server and one onboarded host, for the tests that play a host app and its widgets
/// as separate `tandem host` / `tandem widget` processes sharing one directory.
final class ExtensionFixture: Sendable {
    /// The passcode the host's vault is created with; only `host onboard` and `host unlock` get it.
    static let passcode = "fixture-passcode-7"

    let scratch: TemporaryDirectory
    /// The `--dir` every host and widget process is given.
    let dir: String
    let server: ServerProcess
    /// The server's `--database`, for a test that starts it again.
    let database: String
    /// The seeded API-key app's (`tandem-demo-kiosk`) key, as `seed-demo` printed it once.
    let kioskAPIKey: String?

    private init(scratch: TemporaryDirectory, server: ServerProcess, database: String, kioskAPIKey: String?) {
        self.scratch = scratch
        self.server = server
        self.database = database
        self.kioskAPIKey = kioskAPIKey
        dir = scratch.url.appendingPathComponent("app").path
    }

    /// Seeds a SQLite database (passwords hashed cheaply, as the server checks them), starts `tandem serve` (advertising its real address) and, unless
    /// `onboard` is false, onboards the demo user's host app.
    /// With `dpopRequired`, the demo app requires DPoP (`tandem admin set-dpop`) before anything
    /// is onboarded.
    static func start(graceSeconds: Double = 5, onboard: Bool = true, dpopRequired: Bool = false) async throws -> ExtensionFixture {
        let scratch = try TemporaryDirectory()
        let database = "sqlite:" + scratch.url.appendingPathComponent("server.sqlite").path
        let seeded = try await TandemExecutable.run(["admin", "seed-demo", "--database", database, "--fast-password-hashing"])
        guard seeded.status == 0 else { throw TestSetupError("seed-demo failed: \(seeded.stderr)") }
        if dpopRequired {
            let required = try await TandemExecutable.run(["admin", "set-dpop", "--database", database, "--client-id", "tandem-demo"])
            guard required.status == 0 else { throw TestSetupError("set-dpop failed: \(required.stderr)") }
        }
        let server = try await ServerProcess(
            database: database, graceSeconds: graceSeconds, issuer: nil, scratch: scratch.url,
            arguments: ["--log-level", "warning"])
        let kioskAPIKey = seeded.stdout.split(separator: "\n").first { $0.contains("API key for tandem-demo-kiosk") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        let fixture = ExtensionFixture(scratch: scratch, server: server, database: database, kioskAPIKey: kioskAPIKey)
        if onboard {
            let result = try await fixture.host(
                ["onboard", "--server", server.baseURL.absoluteString, "--client-id", "tandem-demo", "--username", "demo", "--fast-kdf"],
                environment: ["TANDEM_PASSWORD": "demo-password", "TANDEM_PASSCODE": passcode])
            guard result.status == 0 else { throw TestSetupError("host onboard failed: \(result.stderr)") }
        }
        return fixture
    }

    /// Stops the server.
    func stop() async throws { try await server.stop() }

    /// Starts the server again on the same port and database, after ``stop()``; the caller stops it.
    func restartedServer() async throws -> ServerProcess {
        try await ServerProcess(
            database: database, graceSeconds: 5, issuer: nil, scratch: scratch.url, arguments: ["--log-level", "warning"],
            port: server.baseURL.port ?? 0)
    }

    /// Runs `tandem host SUBCOMMAND --dir DIR …` with no passcode in its environment unless given.
    func host(_ arguments: [String], environment: [String: String] = [:]) async throws -> TandemExecutable.Outcome {
        try await TandemExecutable.run(["host", arguments[0], "--dir", dir] + arguments.dropFirst(), environment: environment)
    }

    /// Runs `tandem widget SUBCOMMAND --dir DIR …`.
    func widget(_ arguments: [String], environment: [String: String] = [:]) async throws -> TandemExecutable.Outcome {
        try await TandemExecutable.run(["widget", arguments[0], "--dir", dir] + arguments.dropFirst(), environment: environment)
    }

    /// Runs `tandem-widget SUBCOMMAND --dir DIR …`: the widget as its own small binary.
    func widgetBinary(_ arguments: [String]) async throws -> TandemExecutable.Outcome {
        try await TandemExecutable.run([arguments[0], "--dir", dir] + arguments.dropFirst(), executable: "tandem-widget")
    }

    /// Revokes the user's refresh token at the server, as another device or an administrator
    /// would: the whole family ends, and with it the extension grant made from it.
    func revokeTheUsersFamily() async throws {
        let tokens = try await TandemExecutable.run(
            ["vault", "get", "--dir", dir, "oauth.tokens"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(tokens.status == 0, "\(tokens.stderr)")
        let refreshToken = try #require(try ExtensionFixture.lastJSON(tokens.stdout)["refreshToken"] as? String)
        let revoke = try await HTTPTestClient().postForm(server.baseURL, "oauth/revoke", [("token", refreshToken), ("client_id", "tandem-demo")])
        #expect(revoke.status == 200)
    }

    /// The JSON object a command printed last on standard output.
    static func lastJSON(_ output: String) throws -> [String: Any] {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw TestSetupError("no JSON object in output: \(output)") }
        return object
    }

    /// Every JSON object a command printed, one per line.
    static func jsonLines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// How many requests the server counted for `method path`, from its `/metrics`.
    func requestCount(method: String, path: String) async throws -> Int {
        let metrics = try await server.metrics()
        let text = String(decoding: metrics.body, as: UTF8.self)
        var total = 0
        for line in text.split(separator: "\n") where line.hasPrefix("hb_requests_total{") || line.hasPrefix("hb_requests{") {
            guard line.contains("http_request_method=\"\(method)\""), line.contains("http_route=\"\(path)\""),
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { continue }
            total += Int(value)
        }
        return total
    }
}
