import Foundation
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The SQLite database is private to the server's account: its directory, its file and the
/// `-wal` and `-shm` files SQLite makes beside it, whatever the umask.
@Suite("private database files")
struct PrivateDatabaseFilesTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("a new database's directory is 0700 and its file, -wal and -shm are 0600")
    func newDatabaseIsPrivate() async throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.url.appendingPathComponent("state/tandem").path
        let path = directory + "/tandem.sqlite"
        let storage = try await ServerDatabase.open(.sqlite(path: path), logger: LogCapture.discarding)
        _ = try await ServerKeys.load(from: storage.serverKeys, secret: .forTests)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try Self.mode(directory) == 0o700)
        #expect(try Self.mode(scratch.url.appendingPathComponent("state").path) == 0o700)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
        await storage.connector.shutdown()
    }

    @Test("an existing database readable by other accounts is narrowed to 0600 on open")
    func existingOpenDatabaseIsNarrowed() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.url.appendingPathComponent("tandem.sqlite").path
        try await ServerDatabase.open(.sqlite(path: path), logger: LogCapture.discarding).connector.shutdown()
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        let storage = try await ServerDatabase.open(.sqlite(path: path), logger: LogCapture.discarding)
        try await storage.ping()
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
        await storage.connector.shutdown()
    }
}
