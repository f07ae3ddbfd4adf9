import Foundation
import Logging
import SQLKit
@testable import TandemServer
import TandemTestSupport

/// A database made for one test; ``drop()`` removes it (the SQLite file goes with its directory).
public final class TestDatabase: Sendable {
    /// Where it is.
    public let location: DatabaseLocation
    /// A scratch directory for the test (holds the SQLite file).
    public let directory: TemporaryDirectory
    /// The PostgreSQL database's name, to drop it afterwards.
    public let postgresName: String?

    public init(location: DatabaseLocation, directory: TemporaryDirectory, postgresName: String?) {
        self.location = location
        self.directory = directory
        self.postgresName = postgresName
    }

    /// The `--database` argument naming it.
    public var argument: String {
        switch location {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): url
        }
    }

    /// Opens and migrates it.
    public func open() async throws -> ServerDatabase {
        try await ServerDatabase.open(location, logger: LogCapture.discarding)
    }

    /// Opens it, runs `body`, and closes it whatever happens.
    public func withStorage<Result>(_ body: (ServerDatabase) async throws -> Result) async throws -> Result {
        try await ServerDatabase.withOpened(location, logger: LogCapture.discarding, body)
    }

    /// Removes the PostgreSQL database (SQLite files go when ``directory`` does).
    public func drop() async {
        guard let postgresName, let adminURL = try? TestBackend.postgresURL() else { return }
        try? await TestBackend.administer(adminURL) { database in
            try await database.raw("DROP DATABASE IF EXISTS \(unsafeRaw: postgresName) WITH (FORCE)").run()
        }
    }
}

extension TestBackend {
    /// Makes a fresh database, runs `body` with it, and drops it afterwards.
    public func withDatabase<Result>(_ body: (TestDatabase) async throws -> Result) async throws -> Result {
        let database = try await makeDatabase()
        do {
            let result = try await body(database)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }
}
