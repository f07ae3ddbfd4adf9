import Foundation
@testable import TandemServer
import TandemTestSupport
import Testing

/// Where the system secret comes from: a 0600 file, the environment, or a file generated beside
/// a SQLite database; never nothing for PostgreSQL.
@Suite("system secret sources")
struct SystemSecretSourceTests {
    static let postgres = DatabaseLocation.postgres(url: "postgres://tandem@127.0.0.1:5432/tandem")

    @Test("PostgreSQL without a secret is a typed error")
    func postgresNeedsASecret() throws {
        #expect(throws: SystemSecretError.self) {
            _ = try SystemSecret.resolve(file: nil, environment: [:], database: Self.postgres)
        }
        _ = try SystemSecret.resolve(file: nil, environment: ["TANDEM_SYSTEM_SECRET": "a-long-enough-secret-123"], database: Self.postgres)
        #expect(throws: SystemSecretError.tooShort(source: "TANDEM_SYSTEM_SECRET")) {
            _ = try SystemSecret.resolve(file: nil, environment: ["TANDEM_SYSTEM_SECRET": "short"], database: Self.postgres)
        }
    }

    @Test("a secret file readable by other accounts is refused")
    func groupReadableFileIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let file = scratch.url.appendingPathComponent("secret").path
        try Data("a-long-enough-secret-123\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        #expect(throws: SystemSecretError.insecureFile(path: file, mode: "0640")) {
            _ = try SystemSecret.resolve(file: file, environment: [:], database: Self.postgres)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        _ = try SystemSecret.resolve(file: file, environment: [:], database: Self.postgres)
    }

    @Test("beside a SQLite database a 0600 secret file is generated once and reused")
    func sqliteGetsAGeneratedSecret() throws {
        let scratch = try TemporaryDirectory()
        let location = DatabaseLocation.sqlite(path: scratch.url.appendingPathComponent("new/tandem.sqlite").path)
        let path = try #require(location.generatedSystemSecretPath)
        _ = try SystemSecret.resolve(file: nil, environment: [:], database: location)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.count > 40)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        _ = try SystemSecret.resolve(file: nil, environment: [:], database: location)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
    }
}
