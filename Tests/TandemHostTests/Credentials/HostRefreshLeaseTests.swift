import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import Testing

/// The host's refresh lease lives in its private directory: a live lease an extension (or any
/// process with App Group access) plants in the shared container never makes the host wait.
@Suite struct HostRefreshLeaseTests {
    @Test func theHostsLeaseLivesInItsPrivateDirectoryWhereNoPlantedLeaseReaches() async throws {
        let fixture = try HostFixture()
        let configuration = try await fixture.onboard()
        let before = try #require(try fixture.userTokens())
        try Self.plantLiveLease(in: fixture.container.directory)

        try fixture.vault.unlock()
        defer { fixture.vault.lock() }
        let events = Locked<[RefreshEvent]>([])
        let leasesSeen = Locked<[String]>([])
        let hostDirectory = fixture.vault.directory
        let coordinator = try RefreshCoordinator.host(
            vault: fixture.vault, oauth: OAuthClient(configuration: configuration, client: HTTPClient(transport: fixture.server)),
            onEvent: { event in
                events.withLock { $0.append(event) }
                guard event == .leaseAcquired else { return }
                let names = (try? FileManager.default.subpathsOfDirectory(atPath: hostDirectory.path)) ?? []
                leasesSeen.withLock { $0 = names.filter { $0.hasSuffix(".lease") } }
            })

        let refreshed = try await coordinator.refresh(replacing: before.accessToken)
        #expect(refreshed.accessToken != before.accessToken)
        #expect(events.withLock { $0 } == [.leaseAcquired, .refreshed], "nothing was waited for")
        #expect(leasesSeen.withLock { $0 } == ["leases/\(RefreshCoordinator.hostLeaseName).lease"])
    }

    /// Writes a well-formed lease on the host's lease name, live for ten more seconds, as a
    /// hostile process with App Group access could.
    static func plantLiveLease(in container: URL) throws {
        let name = RefreshCoordinator.hostLeaseName
        let now = Date()
        let record: [String: Any] = [
            "format": "tandem.shared", "version": 1, "kind": "lease",
            "body": ["name": name, "owner": "planted",
                     "acquiredAt": now.timeIntervalSinceReferenceDate, "expiresAt": now.addingTimeInterval(10).timeIntervalSinceReferenceDate],
        ]
        let leases = container.appendingPathComponent("leases")
        try FileManager.default.createDirectory(at: leases, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: record).write(to: leases.appendingPathComponent("\(name).lease"))
    }
}
