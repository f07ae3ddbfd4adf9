import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TandemServer
import TandemTool

/// `tandem serve`: runs the mobile services server until SIGINT or SIGTERM.
///
/// Prints `listening on http://HOST:PORT` to standard output once it accepts connections (with
/// `--port 0`, the port the system picked); logs go to standard error.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Tandem server.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var systemSecret: SystemSecretOptions
    @OptionGroup var operations: ServeOperationsOptions
    @OptionGroup var push: ServePushOptions
    @OptionGroup var backends: ServeBackendOptions
    @OptionGroup var passwordHashing: PasswordHashingOptions
    @OptionGroup var metricsToken: MetricsTokenOptions

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .long, help: "The issuer URL put in access tokens (default http://HOST:PORT).")
    var issuer: String?

    @Option(name: .long, help: "Seconds during which a retried refresh gets the same successor (0 disables).")
    var graceSeconds: Double = 5

    @Option(name: .long, help: "Requests per second each client may make to /oauth/token, /oauth/revoke and /oauth/introspect (burst: twice that).")
    var rateLimitPerSecond: Double = 500

    @Option(name: .long, help: "Sign-in attempts per minute each client may make (after a burst of 10).")
    var signInAttemptsPerMinute: Double = 120

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error or critical (default: $TANDEM_LOG_LEVEL or info).")
    var logLevel: String?

    @Option(name: .long, help: "Another name of this server, for the universal SSO links of every app with an Apple app id and no link host of its own (not the issuer's host).")
    var ssoLinkHost: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard signInAttemptsPerMinute > 0 else { throw ValidationError("--sign-in-attempts-per-minute must be positive") }
        guard rateLimitPerSecond > 0 else { throw ValidationError("--rate-limit-per-second must be positive") }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard graceSeconds >= 0, graceSeconds <= 300 else { throw ValidationError("--grace-seconds must be between 0 and 300") }
        if let ssoLinkHost {
            do {
                try ServerAdministration.checkLinkHost(ssoLinkHost, issuerHost: URLComponents(string: issuer ?? "http://\(host)")?.host)
            } catch {
                throw ValidationError("--sso-link-host: \(error)")
            }
        }
    }

    func run() async throws {
        // Escaped: a client id or a device label with a line break must not write a line of its own.
        var logger = Logger(label: "tandem.server") { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = (logLevel ?? ProcessInfo.processInfo.environment["TANDEM_LOG_LEVEL"]).flatMap(Logger.Level.init(rawValue:)) ?? .info
        let location = try database.location()
        // With --port 0 and no --issuer, pick the port now: the default issuer (in tokens and in
        // the app configuration's URLs) must name the address clients can actually reach.
        var port = port
        if port == 0, issuer == nil, let free = FreePort.pick(host: host) { port = free }
        var configuration = TandemServerConfiguration(
            host: host, port: port, database: location,
            issuer: issuer ?? "http://\(host):\(port)",
            graceWindow: .milliseconds(Int64((graceSeconds * 1000).rounded())))
        configuration.tokenRateLimit = .perSecond(rateLimitPerSecond)
        configuration.introspectionRateLimit = .perSecond(rateLimitPerSecond)
        configuration.loginRateLimit = RateLimitPolicy(requestsPerSecond: signInAttemptsPerMinute / 60, burst: 10)
        configuration.systemSecret = try systemSecret.resolve(for: location)
        operations.apply(to: &configuration)
        try push.apply(to: &configuration)
        try backends.apply(to: &configuration)
        try metricsToken.apply(to: &configuration)
        configuration.passwordHasher = passwordHashing.hasher
        configuration.ssoLinkHost = ssoLinkHost
        if passwordHashing.fastPasswordHashing { logger.warning("\(PasswordHashingOptions.warning)") }
        logger.info("starting", metadata: ["database": "\(location)", "grace_ms": "\(Int64((graceSeconds * 1000).rounded()))"])
        let app = try await TandemServerApplication.make(configuration: configuration, logger: logger) { [host] boundPort in
            // Unbuffered, so a supervisor or test waiting for this line sees it at once.
            FileHandle.standardOutput.write(Data("listening on http://\(host):\(boundPort)\n".utf8))
        }
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}
