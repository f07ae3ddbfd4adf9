import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// The restoring flow (`tandem host unlock`) with real processes against a real server: a
/// session whose family was revoked sends the user through sign-in again and re-arms the
/// widgets; widgets told `reauthRequired` get a new grant from a session that still works.
@Suite("The restoring flow across processes", .serialized)
struct RestoreFlowTests {
    static let customers = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]

    @Test func aRevokedFamilySignsTheUserInAgainAndReArmsTheWidgets() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        try await fixture.revokeTheUsersFamily()
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["refresh"]).stdout)["result"] as? String == "reauthRequired")

        let restore = try await fixture.host(
            ["unlock", "--username", "demo"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode, "TANDEM_PASSWORD": "demo-password"])
        #expect(restore.status == 0, "\(restore.stderr)")
        let restored = try ExtensionFixture.lastJSON(restore.stdout)
        #expect(restored["session"] as? String == "ready")
        #expect(restored["signed_in_again"] as? Bool == true)
        #expect(restored["extension_grant"] as? String == "reissued")

        // Direct mode works again with the new grant…
        let fetch = try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)
        #expect(fetch["status"] as? Int == 200)
        // …and brokered mode through the host's new tokens.
        #expect(try await fixture.widget(["request"] + Self.customers).status == 0)
        let fulfil = try ExtensionFixture.lastJSON(try await fixture.host(["fulfil"]).stdout)
        let outcomes = fulfil["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.contains { $0["result"] as? String == "fulfilled" }, "\(outcomes)")
        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.customers).stdout)
        #expect(read["session"] as? String == "ready")
    }

    @Test func aRevokedFamilyWithNobodyToSignInLeavesTheWidgetsSignedOut() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        try await fixture.revokeTheUsersFamily()

        let restore = try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try ExtensionFixture.lastJSON(restore.stdout)["session"] as? String == "signedOut")
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.customers).stdout)["session"] as? String == "signedOut")
    }

    @Test func widgetsToldReauthRequiredGetANewGrantFromAWorkingSession() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        // The widgets' grant is lost (their fetch then tells the container `reauthRequired`); the
        // user's own session is untouched.
        let grantFile = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container/grant")
        #expect(FileManager.default.fileExists(atPath: grantFile.path))
        try FileManager.default.removeItem(at: grantFile)
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)["result"] as? String == "reauthRequired")

        let restore = try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(restore.status == 0, "\(restore.stderr)")
        let restored = try ExtensionFixture.lastJSON(restore.stdout)
        #expect(restored["session"] as? String == "ready")
        #expect(restored["signed_in_again"] as? Bool == false, "the user's own session still worked")
        #expect(restored["extension_grant"] as? String == "reissued")
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)["status"] as? Int == 200)
    }
}
