import Foundation
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Secrets reach `tandem` through files, the environment or standard input, where `ps` cannot
/// show them; the command-line forms still work but warn on standard error.
@Suite(.serialized)
struct SecretOptionsTests {
    static let warning = "visible to other local accounts"
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory()
    }

    /// A 0600 file holding `text` and a newline.
    func secretFile(_ name: String, _ text: String) throws -> String {
        let path = home.url.appendingPathComponent(name).path
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    @Test("vault passcodes and values from files, the environment and standard input work silently; on the command line they warn")
    func vaultSecrets() async throws {
        let dir = home.url.appendingPathComponent("vault").path
        let passcodeFile = try secretFile("passcode", "open-sesame-1")
        let created = try await TandemExecutable.run(["vault", "create", "--dir", dir, "--fast-kdf", "--passcode-file", passcodeFile])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!created.stderr.contains(Self.warning))

        let fromStdin = try await TandemExecutable.run(
            ["vault", "put", "--dir", dir, "token"], stdin: "rt_secret", environment: ["TANDEM_PASSCODE": "open-sesame-1"])
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(!fromStdin.stderr.contains(Self.warning))
        let read = try await TandemExecutable.run(["vault", "get", "--dir", dir, "token", "--passcode-file", passcodeFile])
        #expect(read.stdout == "rt_secret")

        let onCommandLine = try await TandemExecutable.run(["vault", "put", "--dir", dir, "profile", "Ada", "--passcode", "open-sesame-1"])
        #expect(onCommandLine.status == 0, "the command-line form keeps working")
        #expect(onCommandLine.stderr.components(separatedBy: Self.warning).count == 3, "one warning for the passcode, one for the value: \(onCommandLine.stderr)")

        let newPasscodeFile = try secretFile("new-passcode", "open-sesame-2")
        let changed = try await TandemExecutable.run(
            ["vault", "change-passcode", "--dir", dir, "--fast-kdf", "--passcode-file", passcodeFile, "--new-passcode-file", newPasscodeFile])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(!changed.stderr.contains(Self.warning))
        #expect(try await TandemExecutable.run(["vault", "get", "--dir", dir, "profile", "--passcode-file", newPasscodeFile]).stdout == "Ada")
    }

    @Test("seed-demo takes the password from a file or TANDEM_PASSWORD; --password warns")
    func seedDemoPassword() async throws {
        for (name, arguments, environment, warns) in [
            ("file", ["--password-file", try secretFile("password", "file-password-1")], [String: String](), false),
            ("environment", [], ["TANDEM_PASSWORD": "env-password-1"], false),
            ("option", ["--password", "option-password-1"], [:], true),
        ] {
            let database = "sqlite:" + home.url.appendingPathComponent("\(name).sqlite").path
            let seeded = try await TandemExecutable.run(
                ["admin", "seed-demo", "--database", database, "--fast-password-hashing"] + arguments, environment: environment)
            #expect(seeded.status == 0, "\(name): \(seeded.stderr)")
            #expect(seeded.stderr.contains(Self.warning) == warns, "\(name): \(seeded.stderr)")
            #expect(!seeded.stderr.contains("default password"), "\(name): the given password was used")
        }
    }

    @Test("the database URL comes from --database-file or TANDEM_DATABASE_URL; a password inside --database warns")
    func databaseURL() async throws {
        let viaFile = home.url.appendingPathComponent("file.sqlite").path
        let file = try secretFile("database-url", "sqlite:\(viaFile)")
        let fromFile = try await TandemExecutable.run(["admin", "seed-demo", "--database-file", file, "--fast-password-hashing"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(FileManager.default.fileExists(atPath: viaFile))

        let viaEnvironment = home.url.appendingPathComponent("env.sqlite").path
        let fromEnvironment = try await TandemExecutable.run(
            ["admin", "seed-demo", "--fast-password-hashing"], environment: ["TANDEM_DATABASE_URL": "sqlite:\(viaEnvironment)"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(FileManager.default.fileExists(atPath: viaEnvironment))

        // Nothing listens on port 1: the command fails after the warning.
        let withPassword = try await TandemExecutable.run(["admin", "seed-demo", "--database", "postgres://tandem:hunter2-secret@127.0.0.1:1/tandem"])
        #expect(withPassword.stderr.contains("a password in --database on the command line is \(Self.warning)"), "\(withPassword.stderr)")
    }
}
