import Foundation
import Testing
import Logging
import SQLKit
@testable import TandemServer
import TandemTestSupport

/// The two databases every storage and rotation test runs against.
public enum TestBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }

    /// The server PostgreSQL started by `scripts/with-postgres.sh`.
    public static func postgresURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TANDEM_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw TestSetupError("run through make test (scripts/with-postgres.sh) or set TANDEM_TEST_POSTGRES_URL")
        }
        return url
    }

    /// A fresh, empty database of this kind: a new SQLite file in a temporary directory, or a new
    /// database on the test PostgreSQL server.
    public func makeDatabase() async throws -> TestDatabase {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return TestDatabase(location: .sqlite(path: directory.url.appendingPathComponent("data/tandem.sqlite").path), directory: directory, postgresName: nil)
        case .postgres:
            let adminURL = try Self.postgresURL()
            let name = "tandem_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try await Self.administer(adminURL) { database in
                try await database.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            }
            guard var components = URLComponents(string: adminURL) else { throw TestSetupError("unparseable TANDEM_TEST_POSTGRES_URL") }
            components.path = "/" + name
            guard let url = components.string else { throw TestSetupError("cannot build a database URL") }
            return TestDatabase(location: .postgres(url: url), directory: try TemporaryDirectory(), postgresName: name)
        }
    }

    /// Runs `body` on a short-lived connection to the test server's main database.
    public static func administer(_ url: String, _ body: @Sendable (any SQLDatabase) async throws -> Void) async throws {
        let connector = try await PostgresConnector(url: url, maxConnectionsPerEventLoop: 1, logger: LogCapture.discarding)
        do {
            try await connector.withConnection(body)
        } catch {
            await connector.shutdown()
            throw error
        }
        await connector.shutdown()
    }
}
