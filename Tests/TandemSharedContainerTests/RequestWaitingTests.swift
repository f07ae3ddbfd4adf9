import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

@testable import TandemSharedContainer

/// A long-running host waits for widgets' requests instead of polling: it wakes when one is
/// written by another process (here another task with its own container instance), at once
/// when one is already there, and returns `false` when its time is up with none. Requests it
/// has already seen (left pending by its last run) and files that are no request do not wake
/// it; a widget asking again does. The timeouts run on a clock the test moves.
@Suite("Waiting for data requests", .timeLimit(.minutes(1)))
struct RequestWaitingTests {
    let home: ContainerHome
    let sealingKey: SharedSealingKey
    let orders = EntityKey(destination: "eu", entitySet: "orders")
    let clock = ManualClock()

    init() throws {
        home = try ContainerHome()
        sealingKey = try SharedSealingKey.provision(in: home.sharedSecrets)
    }

    @Test func aWaitingHostWakesWhenAWidgetWritesARequest() async throws {
        let host = try home.container()
        let widget = try home.container()
        let share = try AuxiliaryShare.random()
        let key = sealingKey
        let orders = orders
        let clock = clock
        let writer = Task {
            try await clock.waitForSleepers()  // the host is waiting
            try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: key)
        }
        // The clock never moves: returning at all means the request woke it.
        #expect(await host.requests.waitForRequests(upTo: .seconds(3600), clock: clock))
        try await writer.value
        #expect(try host.requests.pending(sealingKey: sealingKey).count == 1)
    }

    @Test func aRequestAlreadyThereReturnsAtOnce() async throws {
        let container = try home.container()
        try container.requests.submit(kind: "entities", key: orders, share: try .random(), sealingKey: sealingKey)
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600), clock: clock))
        #expect(clock.sleeperCount == 0, "it did not wait")
    }

    @Test func withNoRequestTheWaitEndsAtItsTimeout() async throws {
        let container = try home.container()
        #expect(try await waitsOutItsTimeout(container) == false)
    }

    @Test func aRequestAlreadySeenDoesNotWakeTheHostButAskingAgainDoes() async throws {
        let container = try home.container()
        let share = try AuxiliaryShare.random()
        try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let seen = container.requests.seen()
        #expect(seen.count == 1)
        #expect(try await waitsOutItsTimeout(container, besides: seen) == false)

        let widget = try home.container()
        let (key, orders, clock) = (sealingKey, orders, clock)
        let writer = Task {
            try await clock.waitForSleepers()  // the host is waiting
            try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: key)
        }
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600), besides: seen, clock: clock))
        try await writer.value
    }

    @Test func aFileThatIsNoRequestWakesTheHostOnceThenNoMore() async throws {
        let container = try home.container()
        let folder = container.directory.appendingPathComponent("requests", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a sealed request".utf8).write(to: folder.appendingPathComponent("planted.request"))
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600), clock: clock), "an unseen file is worth a look")
        #expect(try container.requests.pending(sealingKey: sealingKey).isEmpty, "it is not a readable request")
        let seen = container.requests.seen()
        #expect(try await waitsOutItsTimeout(container, besides: seen) == false)
    }

    /// What a wait of 300 ms returns once the clock has moved those 300 ms while it waits.
    private func waitsOutItsTimeout(_ container: SharedContainer, besides seen: SeenRequests = SeenRequests()) async throws -> Bool {
        let clock = clock
        let waiting = Task { await container.requests.waitForRequests(upTo: .milliseconds(300), besides: seen, clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(300))
        return await waiting.value
    }
}
