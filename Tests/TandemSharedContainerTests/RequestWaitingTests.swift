import Foundation
import TandemPlatform
import TandemVault
import Testing

@testable import TandemSharedContainer

/// A long-running host waits for widgets' requests instead of polling: it wakes when one is
/// written by another process (here another task with its own container instance), at once
/// when one is already there, and returns `false` when its time is up with none. Requests it
/// has already seen (left pending by its last run) and files that are no request do not wake
/// it; a widget asking again does.
@Suite("Waiting for data requests")
struct RequestWaitingTests {
    let home: BridgeHome
    let bridgeKey: BridgeKey
    let orders = EntityKey(destination: "eu", entitySet: "orders")

    init() throws {
        home = try BridgeHome()
        bridgeKey = try BridgeKey.provision(in: home.sharedSecrets)
    }

    @Test func aWaitingHostWakesWhenAWidgetWritesARequest() async throws {
        let host = try home.container()
        let widget = try home.container()
        let share = try AuxiliaryShare.random()
        let key = bridgeKey
        let orders = orders
        let writer = Task {
            try await Task.sleep(for: .milliseconds(200))
            try widget.requests.submit(kind: "entities", key: orders, share: share, bridgeKey: key)
        }
        // An hour's timeout: returning at all means the request woke it.
        #expect(await host.requests.waitForRequests(upTo: .seconds(3600)))
        try await writer.value
        #expect(try host.requests.pending(bridgeKey: bridgeKey).count == 1)
    }

    @Test func aRequestAlreadyThereReturnsAtOnce() async throws {
        let container = try home.container()
        try container.requests.submit(kind: "entities", key: orders, share: try .random(), bridgeKey: bridgeKey)
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600)))
    }

    @Test func withNoRequestTheWaitEndsAtItsTimeout() async throws {
        let container = try home.container()
        #expect(await container.requests.waitForRequests(upTo: .milliseconds(300)) == false)
    }

    @Test func aRequestAlreadySeenDoesNotWakeTheHostButAskingAgainDoes() async throws {
        let container = try home.container()
        let share = try AuxiliaryShare.random()
        try container.requests.submit(kind: "entities", key: orders, share: share, bridgeKey: bridgeKey)
        let seen = container.requests.seen()
        #expect(seen.count == 1)
        #expect(await container.requests.waitForRequests(upTo: .milliseconds(300), besides: seen) == false)

        let widget = try home.container()
        let (key, orders) = (bridgeKey, orders)
        let writer = Task {
            try await Task.sleep(for: .milliseconds(200))
            try widget.requests.submit(kind: "entities", key: orders, share: share, bridgeKey: key)
        }
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600), besides: seen))
        try await writer.value
    }

    @Test func aFileThatIsNoRequestWakesTheHostOnceThenNoMore() async throws {
        let container = try home.container()
        let folder = container.directory.appendingPathComponent("requests", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a sealed request".utf8).write(to: folder.appendingPathComponent("planted.request"))
        #expect(await container.requests.waitForRequests(upTo: .seconds(3600)), "an unseen file is worth a look")
        #expect(try container.requests.pending(bridgeKey: bridgeKey).isEmpty, "it is not a readable request")
        let seen = container.requests.seen()
        #expect(await container.requests.waitForRequests(upTo: .milliseconds(300), besides: seen) == false)
    }
}
