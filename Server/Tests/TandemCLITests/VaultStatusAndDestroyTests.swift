import Foundation
import Testing

/// `tandem vault status` and `tandem vault destroy`, run as real processes.
@Suite(.serialized)
struct VaultStatusAndDestroyTests {
    let tandem: TandemProcess
    let home: TemporaryDirectory

    init() throws {
        tandem = try TandemProcess()
        home = try TemporaryDirectory()
    }

    private func vault(_ arguments: String...) throws -> TandemProcess.Outcome {
        try tandem.run(["vault"] + arguments + ["--dir", home.path])
    }

    /// The JSON object `status --json` prints.
    private func statusJSON() throws -> [String: Any] {
        let status = try vault("status", "--json")
        try #require(status.status == 0, "\(status.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func statusJSONIsParseableBeforeAndAfterCreation() throws {
        #expect(try statusJSON()["exists"] as? Bool == false)

        #expect(try vault("create", "--fast-kdf", "--max-attempts", "4", "--passcode", "open-sesame").status == 0)
        #expect(try vault("unlock", "--passcode", "wrong-passcode").status != 0)
        #expect(try vault("enable-extension-access", "--passcode", "open-sesame").status == 0)
        #expect(try vault("unlock", "--passcode", "wrong-passcode").status != 0)

        let status = try statusJSON()
        #expect(status["exists"] as? Bool == true)
        #expect(status["protection"] as? String == "passcode")
        #expect(status["extensionAccessEnabled"] as? Bool == true)
        #expect(status["failedAttempts"] as? Int == 1)
        #expect(status["remainingAttempts"] as? Int == 3)
    }

    @Test func statusIsHumanReadableByDefault() throws {
        #expect(try vault("create", "--no-passcode").status == 0)
        let status = try vault("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("protection:        device secret only"))
        #expect(status.stdout.contains("extension access:  disabled"))
    }

    @Test func destroyNeedsConfirmationThenRemovesTheVault() throws {
        #expect(try vault("create", "--no-passcode").status == 0)
        let refused = try vault("destroy")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--yes"))
        #expect(try statusJSON()["exists"] as? Bool == true)

        #expect(try vault("destroy", "--yes").status == 0)
        #expect(try statusJSON()["exists"] as? Bool == false)
        let get = try vault("get", "anything")
        #expect(get.status != 0)
        #expect(get.stderr.contains("no vault has been created"))
    }
}
