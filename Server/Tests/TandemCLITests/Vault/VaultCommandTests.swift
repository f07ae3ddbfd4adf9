import Foundation
import TandemServerTestSupport
import Testing
import TandemTestSupport

/// `tandem vault …` run as real processes against a real vault directory.
///
/// Serialized: each test runs its child processes one after another, and the machine is small.
@Suite(.serialized)
struct VaultCommandTests {
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory()
    }

    /// Runs `tandem vault <subcommand> --dir <home> <arguments>`.
    private func vault(
        _ subcommand: String, _ arguments: String..., stdin: String = "", environment: [String: String] = [:]
    ) async throws -> TandemExecutable.Outcome {
        try await TandemExecutable.run(["vault", subcommand, "--dir", home.path] + arguments, stdin: stdin, environment: environment)
    }

    /// Creates a passcode vault with cheap scrypt parameters and checks it worked.
    private func createVault(passcode: String = "open-sesame") async throws {
        let created = try await vault("create", "--fast-kdf", "--passcode", passcode)
        try #require(created.status == 0, "create failed: \(created.stderr)")
    }

    @Test func createPutGetRoundTripsAValue() async throws {
        try await createVault()
        let put = try await vault("put", "greeting", "hello, widget", "--passcode", "open-sesame")
        #expect(put.status == 0, "\(put.stderr)")
        let get = try await vault("get", "greeting", "--passcode", "open-sesame")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "hello, widget")
    }

    @Test func putFromFileRoundTripsExactBytes() async throws {
        try await createVault()
        let file = home.url.appendingPathComponent("value.json")
        let bytes = #"{"refresh_token":"rt_abc","scope":"orders.read"}"# + "\n"
        try Data(bytes.utf8).write(to: file)
        #expect(try await vault("put", "session", "--file", file.path, "--passcode", "open-sesame").status == 0)
        #expect(try await vault("get", "session", "--passcode", "open-sesame").stdout == bytes)
    }

    @Test func wrongPasscodeExitsNonZeroAndSaysSo() async throws {
        try await createVault()
        let get = try await vault("get", "greeting", "--passcode", "not-the-passcode")
        #expect(get.status != 0)
        #expect(get.stderr.contains("wrong passcode"))
        #expect(get.stderr.contains("9 attempts remaining"))
        #expect(get.stdout.isEmpty)
        #expect(!get.stderr.contains("not-the-passcode"))
    }

    @Test func missingItemExitsOneNamingTheKey() async throws {
        try await createVault()
        let get = try await vault("get", "nowhere", "--passcode", "open-sesame")
        #expect(get.status == 1)
        #expect(get.stderr.contains("no item nowhere"))
    }

    @Test func passcodeComesFromEnvironmentOrStandardInput() async throws {
        let created = try await vault("create", "--fast-kdf", stdin: "from-stdin-42\n")
        try #require(created.status == 0, "\(created.stderr)")
        #expect(try await vault("unlock", environment: ["TANDEM_PASSCODE": "from-stdin-42"]).stdout == "unlocked\n")
        #expect(try await vault("unlock", stdin: "from-stdin-42\n").stdout == "unlocked\n")
        let missing = try await vault("unlock")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no passcode"))
    }

    @Test func getPairedReadsAValueWithTheSharesOnly() async throws {
        try await createVault()
        #expect(try await vault("put", "profile", "Ada", "--passcode", "open-sesame").status == 0)
        let before = try await vault("get-paired", "profile")
        #expect(before.status != 0)
        #expect(before.stderr.contains("extension access is not enabled"))

        #expect(try await vault("enable-extension-access", "--passcode", "open-sesame").status == 0)
        // No passcode anywhere: no option, no environment, empty standard input.
        let paired = try await vault("get-paired", "profile")
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdout == "Ada")
    }

    @Test func rotatePairedKeyRetiresTheOldShare() async throws {
        try await createVault()
        #expect(try await vault("put", "profile", "Ada", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("enable-extension-access", "--passcode", "open-sesame").status == 0)
        let shared = home.url.appendingPathComponent("shared/secrets")
        let saved = home.url.appendingPathComponent("old-shared-secrets")
        try FileManager.default.copyItem(at: shared, to: saved)

        #expect(try await vault("rotate-paired-key", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("get-paired", "profile").stdout == "Ada")

        // An extension still holding the old share is refused.
        try FileManager.default.removeItem(at: shared)
        try FileManager.default.copyItem(at: saved, to: shared)
        let stale = try await vault("get-paired", "profile")
        #expect(stale.status != 0)
        #expect(stale.stderr.contains("paired access key does not open"))
    }

    @Test func disableExtensionAccessRemovesTheShare() async throws {
        try await createVault()
        #expect(try await vault("enable-extension-access", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("disable-extension-access", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("get-paired", "profile").stderr.contains("extension access is not enabled"))
    }

    @Test func changePasscodeRefusesTheOldOneAndAcceptsTheNew() async throws {
        try await createVault(passcode: "first-passcode")
        #expect(try await vault("put", "token", "rt_123", "--passcode", "first-passcode").status == 0)
        let change = try await vault(
            "change-passcode", "--fast-kdf",
            environment: ["TANDEM_PASSCODE": "first-passcode", "TANDEM_NEW_PASSCODE": "second-passcode"])
        #expect(change.status == 0, "\(change.stderr)")

        let old = try await vault("unlock", "--passcode", "first-passcode")
        #expect(old.status != 0)
        #expect(old.stderr.contains("wrong passcode"))
        #expect(try await vault("unlock", "--passcode", "second-passcode").stdout == "unlocked\n")
        #expect(try await vault("get", "token", "--passcode", "second-passcode").stdout == "rt_123")
    }

    @Test func changePasscodeReadsBothFromStandardInput() async throws {
        try await createVault(passcode: "first-passcode")
        let change = try await vault("change-passcode", "--fast-kdf", stdin: "first-passcode\nsecond-passcode\n")
        #expect(change.status == 0, "\(change.stderr)")
        #expect(try await vault("unlock", "--passcode", "second-passcode").status == 0)
    }

    @Test func policyOptionsAreEnforced() async throws {
        let short = try await vault("create", "--fast-kdf", "--min-length", "12", "--passcode", "too-short")
        #expect(short.status != 0)
        #expect(short.stderr.contains("at least 12 characters"))
    }

    @Test func noPasscodeVaultOpensWithoutAsking() async throws {
        #expect(try await vault("create", "--no-passcode").status == 0)
        #expect(try await vault("put", "setting", "dark").status == 0)
        #expect(try await vault("get", "setting").stdout == "dark")
    }
}
