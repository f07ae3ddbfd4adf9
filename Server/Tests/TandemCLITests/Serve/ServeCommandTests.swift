import Foundation
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `tandem serve` as a process: where it keeps its database by default, its health as the
/// database comes and goes, and a graceful shutdown on SIGTERM.
@Suite("tandem serve")
struct ServeCommandTests {
    @Test("health reports ok, and 503 when the database goes away")
    func healthFollowsTheDatabase() async throws {
        try await TestBackend.postgres.withDatabase { database in
            try await database.withStorage { _ in }
            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url)
            let client = HTTPTestClient()
            let healthy = try await client.get(server.baseURL, "health")
            #expect(healthy.status == 200)
            #expect(healthy.json == ["status": "ok", "database": "ok"])

            await database.drop()
            let unhealthy = try await client.get(server.baseURL, "health")
            #expect(unhealthy.status == 503)
            #expect(unhealthy.json["database"] == "unavailable")
            let status = try await server.stop()
            #expect(status == 0, "graceful shutdown on SIGTERM")
        }
    }

    @Test("without --database the server creates and migrates tandem.sqlite in the user's data directory")
    func defaultDatabaseIsCreatedOnFirstStart() async throws {
        let home = try TemporaryDirectory()
        let dataHome = home.url.appendingPathComponent("xdg-data")
        let server = try await ServerProcess(
            database: nil, graceSeconds: 5, scratch: home.url, environment: ["XDG_DATA_HOME": dataHome.path, "HOME": home.url.path])
        let health = try await HTTPTestClient().get(server.baseURL, "health")
        try await server.stop()
        #expect(health.status == 200)
        let file = dataHome.appendingPathComponent("tandem/tandem.sqlite").path
        #expect(FileManager.default.fileExists(atPath: file))
        let location = DatabaseLocation.sqlite(path: file)
        let storage = try await ServerDatabase.open(location, logger: LogCapture.discarding)
        let applied = try await Migrator(connector: storage.connector, logger: LogCapture.discarding).migrate()
        await storage.connector.shutdown()
        #expect(applied.isEmpty, "the server already migrated it")
    }
}
