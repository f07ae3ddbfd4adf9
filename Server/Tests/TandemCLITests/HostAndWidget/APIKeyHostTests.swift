import Foundation
import Testing
import TandemTestSupport

/// An API-key app (the seeded `tandem-demo-kiosk`: no user, no sign-in) onboarded by the same
/// flow as an OAuth app, with real processes and a real server: the key from a file, kept in the
/// vault, sent by the background flow that fulfils a widget's request.
@Suite("An API-key host app", .serialized)
struct APIKeyHostTests {
    static let page = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]

    @Test func aKioskOnboardsWithItsKeyAndServesItsWidget() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let key = try #require(fixture.kioskAPIKey, "seed-demo printed the kiosk's key")
        let keyFile = fixture.scratch.url.appendingPathComponent("kiosk.key")
        try Data("\(key)\n".utf8).write(to: keyFile)

        let onboard = try await fixture.host(
            ["onboard", "--server", fixture.server.baseURL.absoluteString, "--client-id", "tandem-demo-kiosk", "--api-key-file", keyFile.path,
             "--fast-kdf"],
            environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(onboard.status == 0, "\(onboard.stderr)")
        let result = try ExtensionFixture.lastJSON(onboard.stdout)
        #expect(result["state"] as? String == "ready")
        #expect(result["security_mode"] as? String == "apiKey")
        #expect(result["extension_grant"] as? Bool == false)
        #expect(!onboard.stderr.contains(key), "the key is never logged")

        #expect(try await fixture.widget(["request"] + Self.page).status == 0)
        let fulfil = try await fixture.host(["fulfil"])
        #expect(fulfil.status == 0, "\(fulfil.stderr)")
        let outcomes = try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["result"] as? String } == ["fulfilled"], "\(outcomes)")
        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.page).stdout)
        #expect((read["snapshot"] as? [String: Any])?["freshness"] as? String == "fresh", "\(read)")
    }

    @Test func aWrongKeyStopsOnboardingAtAuthenticationAndKeepsNothing() async throws {
        let fixture = try await ExtensionFixture.start(onboard: false)
        defer { Task { try? await fixture.stop() } }
        let onboard = try await fixture.host(
            ["onboard", "--server", fixture.server.baseURL.absoluteString, "--client-id", "tandem-demo-kiosk", "--fast-kdf"],
            environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode, "TANDEM_API_KEY": "tdk_not-the-key"])
        #expect(onboard.status != 0)
        #expect(onboard.stderr.contains("authentication"), "\(onboard.stderr)")
        #expect(!onboard.stderr.contains("tdk_not-the-key"), "the key is never echoed")
        let status = try ExtensionFixture.lastJSON(try await fixture.host(["status"]).stdout)
        #expect(status["session"] as? String != "ready", "\(status)")
    }
}
