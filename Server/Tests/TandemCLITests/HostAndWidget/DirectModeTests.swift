import Foundation
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// Direct mode with real processes: the host obtains a scoped extension grant by token exchange
/// at onboarding; widget processes refresh it and read data with it on their own.
@Suite("Direct mode across processes", .serialized)
struct DirectModeTests {
    static let customers = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]

    @Test func widgetRefreshesItsGrantAndReadsDataButCannotWrite() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }

        let refresh = try await fixture.widget(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let refreshed = try ExtensionFixture.lastJSON(refresh.stdout)
        #expect(refreshed["result"] as? String == "ok")
        #expect(refreshed["refreshed"] as? Bool == true)

        let fetch = try await fixture.widget(["fetch"] + Self.customers)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let fetched = try ExtensionFixture.lastJSON(fetch.stdout)
        #expect(fetched["status"] as? Int == 200)
        #expect(fetched["count"] as? Int == 3)

        // Widget events are queued in the shared container; the widget's read-only grant cannot send them…
        for family in ["systemSmall", "systemMedium"] {
            #expect(try await fixture.widget(["track", "--kind", "sales-orders", "--family", family, "--configuration", "sales/SalesOrders"]).status == 0)
        }
        let send = try ExtensionFixture.lastJSON(try await fixture.widget(["send-events"]).stdout)
        #expect(send["status"] as? Int == 403)
        #expect(send["error"] as? String == "insufficient_scope")
        #expect(send["queued"] as? Int == 2, "a refused upload leaves the events queued")
        // …the host sends them with its own token and empties the queue.
        let flush = try await fixture.host(["flush-events"])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(try ExtensionFixture.lastJSON(flush.stdout)["sent"] as? Int == 2)
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["send-events"]).stdout)["queued"] as? Int == 0)
    }

    @Test func revokingTheUsersGrantPutsTheWidgetIntoReauthRequired() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }

        // The user's grant revoked at the server: the whole family ends, and with it the
        // extension grant made from it.
        try await fixture.revokeTheUsersFamily()

        let refresh = try await fixture.widget(["refresh"])
        #expect(refresh.status == 0, "an extension never crashes on a dead grant: \(refresh.stderr)")
        #expect(try ExtensionFixture.lastJSON(refresh.stdout)["result"] as? String == "reauthRequired")
        let read = try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.customers).stdout)
        #expect(read["session"] as? String == "reauthRequired")
        let grantFile = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container/grant")
        #expect(!FileManager.default.fileExists(atPath: grantFile.path), "the dead grant is cleared")
        let fetch = try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)
        #expect(fetch["result"] as? String == "reauthRequired")

        // The host comes to the foreground: its own grant is gone too, so only a new sign-in helps.
        let unlock = try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(unlock.status == 0, "\(unlock.stderr)")
        #expect(try ExtensionFixture.lastJSON(unlock.stdout)["session"] as? String == "signedOut")
        #expect(try ExtensionFixture.lastJSON(try await fixture.widget(["read"] + Self.customers).stdout)["session"] as? String == "signedOut")
    }

    @Test func theHostReissuesALostGrantOnItsNextForeground() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let grantFile = URL(fileURLWithPath: fixture.dir).appendingPathComponent("shared/container/grant")
        try FileManager.default.removeItem(at: grantFile)
        let lost = try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)
        #expect(lost["result"] as? String == "reauthRequired", "a widget without a grant asks for the app, never crashes")

        let unlock = try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode])
        #expect(unlock.status == 0, "\(unlock.stderr)")
        let unlocked = try ExtensionFixture.lastJSON(unlock.stdout)
        #expect(unlocked["session"] as? String == "ready")
        #expect(unlocked["extension_grant"] as? String == "reissued")
        let fetch = try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)
        #expect(fetch["status"] as? Int == 200)

        let again = try ExtensionFixture.lastJSON(try await fixture.host(["unlock"], environment: ["TANDEM_PASSCODE": ExtensionFixture.passcode]).stdout)
        #expect(again["extension_grant"] as? String == "kept", "a working grant is left alone")
    }
}
