import Hummingbird
import HummingbirdTesting
import Logging
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport

/// The Tandem application built in this process on a test database, as `tandem serve` builds
/// it, for the tests of one endpoint.
enum InProcessServer {
    /// The issuer the application puts in tokens and documents.
    static let issuer = "https://auth.tandem.test"

    /// Builds the application on `database` and runs `body` with a client for it, then shuts it down.
    ///
    /// - Parameters:
    ///   - database: Opened and migrated here; the application closes it on shutdown.
    ///   - setup: `.router` calls the router directly; `.live` serves a real socket, for what
    ///     needs one (a body streamed without a Content-Length).
    ///   - logger: The application's logger.
    ///   - clock: The clock the application runs on, for a test that moves time; `nil` runs it on
    ///     the system's, as `tandem serve` does.
    ///   - configure: Changes to the configuration `tandem serve` would use by default.
    static func test<Result: Sendable>(
        _ database: TestDatabase, _ setup: TestingSetup = .router, logger: Logger = LogCapture.discarding,
        clock: ManualClock? = nil, configure: (inout TandemServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (InProcessClient) async throws -> Result
    ) async throws -> Result {
        var configuration = TandemServerConfiguration(host: "127.0.0.1", port: 0, database: database.location, issuer: issuer)
        // The fixtures store cheap hashes; the server's own cost is tested where it matters.
        configuration.passwordHasher = PasswordHasher(logN: 10)
        configuration.systemSecret = .forTests
        configure(&configuration)
        let app = try await build(configuration, storage: try await database.open(), logger: logger, clock: clock)
        return try await app.test(setup) { client in try await body(InProcessClient(client: client)) }
    }

    /// The application on `storage`, which is closed if it cannot be built (once built, the
    /// application closes it on shutdown).
    private static func build(
        _ configuration: TandemServerConfiguration, storage: ServerDatabase, logger: Logger, clock: ManualClock?
    ) async throws -> some ApplicationProtocol {
        do {
            if let clock {
                return try await TandemServerApplication.make(configuration: configuration, database: storage, logger: logger, clock: clock)
            }
            return try await TandemServerApplication.make(configuration: configuration, database: storage, logger: logger)
        } catch {
            await storage.connector.shutdown()
            throw error
        }
    }
}
