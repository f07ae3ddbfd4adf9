import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Lease files planted in the shared container by a process with access to the App Group (or
/// left by one killed while the clock was set back) never block a refresh for long. (That they
/// cannot touch the host's own refresh at all is tested with the host, in `HostRefreshLeaseTests`.)
@Suite struct RefreshLeaseTamperingTests {
    let root: TemporaryDirectory
    let server = FakeAuthorizationServer()
    let leaseDuration: TimeInterval = 10

    init() throws { root = try TemporaryDirectory() }

    var shared: URL { root.url.appendingPathComponent("shared") }
    var oauth: OAuthClient { OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: server.transport())) }

    /// Writes a lease file as a hostile process would: any times it likes.
    func plant(acquiredAt: Date, expiresAt: Date) throws {
        let name = RefreshCoordinator.hostLeaseName
        let record: [String: Any] = [
            "format": "tandem.shared", "version": 1, "kind": "lease",
            "body": ["name": name, "owner": "planted",
                     "acquiredAt": acquiredAt.timeIntervalSinceReferenceDate, "expiresAt": expiresAt.timeIntervalSinceReferenceDate],
        ]
        let leases = shared.appendingPathComponent("leases")
        try FileManager.default.createDirectory(at: leases, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: record).write(to: leases.appendingPathComponent("\(name).lease"))
    }

    /// What a coordinator reported, and a recorder for it.
    let events = Locked<[RefreshEvent]>([])
    var record: @Sendable (RefreshEvent) -> Void { { [events] event in events.withLock { $0.append(event) } } }

    // Checked by what the coordinator did rather than by the clock: a refresh that waited for
    // the planted lease reports it, however busy the machine.
    @Test(arguments: [("expiring in 2099", 4_102_444_800.0, false), ("acquired an hour from now", 0, true)])
    func aPlantedLeaseIsBrokenWithoutWaiting(_ label: String, expiry: Double, acquiredInTheFuture: Bool) async throws {
        let now = Date()
        try plant(acquiredAt: acquiredInTheFuture ? now.addingTimeInterval(3600) : now,
                  expiresAt: expiry > 0 ? Date(timeIntervalSince1970: expiry) : now.addingTimeInterval(leaseDuration))
        let coordinator = RefreshCoordinator(
            store: MemoryTokenStore(RefreshCoordinatorTests.expired()), leases: try SharedContainer(directory: shared).leases,
            oauth: oauth, leaseDuration: leaseDuration, onEvent: record)
        #expect(try await coordinator.refresh(replacing: nil).accessToken == "at_1")
        #expect(events.withLock { $0 } == [.brokeExpiredLease, .leaseAcquired, .refreshed], "a lease \(label)")
    }

    @Test func aCallerWithAStaleTokenLooksAtAPlantedLeaseOnceAndBreaksIt() async throws {
        try plant(acquiredAt: Date(), expiresAt: Date(timeIntervalSince1970: 4_102_444_800))
        let coordinator = RefreshCoordinator(
            store: MemoryTokenStore(RefreshCoordinatorTests.expired()), leases: try SharedContainer(directory: shared).leases,
            oauth: oauth, leaseDuration: leaseDuration, onEvent: record)
        #expect(try await coordinator.refresh(replacing: "at_0").accessToken == "at_1")
        let recorded = events.withLock { $0 }
        #expect(recorded.count == 4)
        guard case .waitedForPeer = recorded.first else { return #expect(Bool(false), "\(recorded)") }
        #expect(recorded.dropFirst() == [.brokeExpiredLease, .leaseAcquired, .refreshed])
    }
}
