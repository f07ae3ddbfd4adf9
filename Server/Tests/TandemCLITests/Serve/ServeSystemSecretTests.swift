import Foundation
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `tandem serve` and the system secret its keys are sealed under.
@Suite("tandem serve: system secret")
struct ServeSystemSecretTests {
    @Test("on PostgreSQL serve refuses to start without a system secret, and with a wrong one")
    func serveNeedsTheRightSecret() async throws {
        try await TestBackend.postgres.withDatabase { database in
            let scratch = database.directory.url
            do {
                _ = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: scratch, environment: ["TANDEM_SYSTEM_SECRET": ""])
                Issue.record("serve started on PostgreSQL without a system secret")
            } catch let error as TestSetupError {
                #expect(error.description.contains("no system secret"), "\(error)")
            }
            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: scratch)
            #expect(try await server.stop() == 0)
            do {
                _ = try await ServerProcess(
                    database: database.argument, graceSeconds: 5, scratch: scratch, environment: ["TANDEM_SYSTEM_SECRET": "another-secret-0123456789"])
                Issue.record("serve started with a wrong system secret")
            } catch let error as TestSetupError {
                #expect(error.description.contains("sealed under another system secret"), "\(error)")
            }
        }
    }

    @Test("on SQLite without a secret serve generates a 0600 secret file beside the database")
    func sqliteGeneratesASecretFile() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.url.appendingPathComponent("db/tandem.sqlite").path
        let server = try await ServerProcess(database: "sqlite:\(path)", graceSeconds: 5, scratch: scratch.url, environment: ["TANDEM_SYSTEM_SECRET": ""])
        try await server.stop()
        let attributes = try FileManager.default.attributesOfItem(atPath: path + ".system-secret")
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }
}
