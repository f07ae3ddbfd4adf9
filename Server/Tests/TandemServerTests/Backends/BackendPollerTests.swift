import Crypto
import Foundation
import Logging
import TandemBackends
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// A backend that cannot report its changes is read again for each user whose widgets show a
/// polled set, at the set's interval; a page that moved records a change for that user and owes
/// their devices a push; an unchanged page (a `304`) or a backend that is down does not.
@Suite struct BackendPollerTests {
    @Test func aUsersPageThatMovedOwesThatUsersDevicesAPush() async throws {
        let backend = FakeCustomerBackend()
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let clock = ManualClock()
                let fixture = try await PushFixture.make(
                    storage, clock: clock, deviceID: "demo-phone",
                    widgets: [PushWidgetSubscription(destination: "crm", entitySet: "Items", rows: 5, delivery: .direct)])
                try await fixture.storeCredentials(storage)
                let demo = try #require(try await storage.accounts.user(named: ServerAdministration.demoUsername))
                backend.setItems([["id": "A-1", "title": "Laptop"]], of: demo.username)
                try await backend.serve { base in
                    var crm = BackendPageReadingTests.destinations(base: base, audience: "https://crm.test")[0]
                    crm.entitySets[0].pollEverySeconds = 60
                    _ = try await storage.backendDestinations.save(crm, now: fixture.now)
                    let policy = OutboundPolicy(allowsLoopback: true, connectTimeout: .seconds(60), requestTimeout: .seconds(60))
                    let client = try BackendHTTPClient(policy: policy, logger: LogCapture.discarding)
                    let reader = BackendPageReader(
                        destinations: storage.backendDestinations, accounts: storage.accounts, client: client,
                        minter: BackendTokenMinter(signingKey: P256.Signing.PrivateKey(), issuer: "https://tandem.test"),
                        logger: LogCapture.discarding, clock: clock)
                    let poller = BackendPoller(
                        destinations: storage.backendDestinations, registry: storage.push, changes: storage.changes, reader: reader,
                        pushDoorbell: PushDoorbell(), logger: LogCapture.discarding)
                    do {
                        #expect(await poller.pollOnce(now: Timestamp(clock.now)) == 0, "the first round learns the page")
                        clock.advance(by: .seconds(30))
                        #expect(await poller.pollOnce(now: Timestamp(clock.now)) == 0)
                        #expect(backend.seen.count == 1, "not due yet")
                        clock.advance(by: .seconds(31))
                        #expect(await poller.pollOnce(now: Timestamp(clock.now)) == 0, "unchanged")
                        #expect(backend.seen.last?.ifNoneMatch != nil)
                        #expect(try await storage.pushOutbox.pendingCount() == 0)

                        backend.setItems([["id": "A-1", "title": "Laptop"], ["id": "A-2", "title": "Chair"]], of: demo.username)
                        clock.advance(by: .seconds(61))
                        #expect(await poller.pollOnce(now: Timestamp(clock.now)) == 1)
                        let owed = try await storage.pushOutbox.due(now: Timestamp(clock.now), limit: 10)
                        #expect(owed.map(\.deviceID) == ["demo-phone"], "\(owed)")
                        #expect(try await storage.changes.changes(since: fixture.now, limit: 100).filter { $0.destination == "crm" }.map(\.userID) == [demo.id])
                        // The user's token went to the backend as the widgets' (act names them).
                        #expect(backend.seen.last?.claims?["act"] != nil)

                        backend.answer(503)
                        clock.advance(by: .seconds(61))
                        #expect(await poller.pollOnce(now: Timestamp(clock.now)) == 0, "a backend that is down changed nothing")
                    } catch {
                        try await client.shutdown()
                        throw error
                    }
                    try await client.shutdown()
                }
            }
        }
    }

    @Test func anIntervalOutsideAMinuteToADayIsRefused() {
        var crm = BackendPageReadingTests.destinations(base: "https://crm.test/", audience: "https://crm.test")[0]
        for seconds in [0, 59, 86_401] {
            crm.entitySets[0].pollEverySeconds = seconds
            #expect(throws: BackendDestinationError.self) { try crm.validate() }
        }
        crm.entitySets[0].pollEverySeconds = 300
        #expect(throws: Never.self) { try crm.validate() }
    }
}
