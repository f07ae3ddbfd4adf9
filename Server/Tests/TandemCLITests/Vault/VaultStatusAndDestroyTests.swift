import Foundation
import TandemServerTestSupport
import Testing
import TandemTestSupport

/// `tandem vault status` and `tandem vault destroy`, run as real processes.
@Suite(.serialized)
struct VaultStatusAndDestroyTests {
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory()
    }

    private func vault(_ arguments: String...) async throws -> TandemExecutable.Outcome {
        try await TandemExecutable.run(["vault"] + arguments + ["--dir", home.path])
    }

    /// The JSON object `status --json` prints.
    private func statusJSON() async throws -> [String: Any] {
        let status = try await vault("status", "--json")
        try #require(status.status == 0, "\(status.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func statusJSONIsParseableBeforeAndAfterCreation() async throws {
        #expect(try await statusJSON()["exists"] as? Bool == false)

        #expect(try await vault("create", "--fast-kdf", "--max-attempts", "4", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("unlock", "--passcode", "wrong-passcode").status != 0)
        #expect(try await vault("enable-extension-access", "--passcode", "open-sesame").status == 0)
        #expect(try await vault("unlock", "--passcode", "wrong-passcode").status != 0)

        let status = try await statusJSON()
        #expect(status["exists"] as? Bool == true)
        #expect(status["protection"] as? String == "passcode")
        #expect(status["extensionAccessEnabled"] as? Bool == true)
        #expect(status["failedAttempts"] as? Int == 1)
        #expect(status["remainingAttempts"] as? Int == 3)
    }

    @Test func statusIsHumanReadableByDefault() async throws {
        #expect(try await vault("create", "--no-passcode").status == 0)
        let status = try await vault("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("protection:        device secret only"))
        #expect(status.stdout.contains("extension access:  disabled"))
    }

    @Test func destroyNeedsConfirmationThenRemovesTheVault() async throws {
        #expect(try await vault("create", "--no-passcode").status == 0)
        let refused = try await vault("destroy")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--yes"))
        #expect(try await statusJSON()["exists"] as? Bool == true)

        #expect(try await vault("destroy", "--yes").status == 0)
        #expect(try await statusJSON()["exists"] as? Bool == false)
        let get = try await vault("get", "anything")
        #expect(get.status != 0)
        #expect(get.stderr.contains("no vault has been created"))
    }
}
