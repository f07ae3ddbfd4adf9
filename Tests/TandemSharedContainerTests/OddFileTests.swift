import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

@testable import TandemSharedContainer

/// Anyone with access to the App Group may put a named pipe, a link or a huge file where a
/// record belongs. Each such file reads as absent, promptly, with a log line; the other records
/// still read.
@Suite("Odd files in the shared container")
struct OddFileTests {
    let home: ContainerHome
    let limit = TimeLimit.seconds(5)
    let orders = EntityKey(destination: "eu", entitySet: "orders")
    let share: AuxiliaryShare
    let sealingKey: SharedSealingKey

    init() throws {
        home = try ContainerHome()
        share = try .random()
        sealingKey = try home.sealingKey()
    }

    var elsewhere: URL { home.root.appendingPathComponent("elsewhere") }

    /// Replaces the record at `path` with `odd`; a link points to a copy of the record.
    func plant(_ odd: OddFile, at path: String, in container: SharedContainer) throws {
        let record = (try? Data(contentsOf: container.url(path))) ?? Data()
        try odd.plant(at: container.url(path), elsewhere: elsewhere, record: record)
    }

    /// `read`, bounded in time; the planted file's readers are let go afterwards either way.
    func promptly<Value: Sendable>(
        _ odd: OddFile, at path: String, in container: SharedContainer, _ read: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        defer { odd.releaseReaders(at: container.url(path)) }
        return try await limit.run(read)
    }

    @Test(arguments: OddFile.allCases)
    func statusReadsAsAbsent(odd: OddFile) async throws {
        let container = try home.container()
        try container.setStatus(SessionStatus(state: .ready))
        try plant(odd, at: "status", in: container)
        #expect(try await promptly(odd, at: "status", in: container) { try container.status() } == nil)
        #expect(home.recorder.logged("path=status"))
    }

    @Test(arguments: OddFile.allCases)
    func grantReadsAsAbsent(odd: OddFile) async throws {
        let container = try home.container()
        let key = ContainerKey(share: share, purpose: .grant)
        try container.sealed.write(Data("grant".utf8), kind: "grant", to: "grant", key: key)
        try plant(odd, at: "grant", in: container)
        #expect(try await promptly(odd, at: "grant", in: container) { try container.sealed.read(kind: "grant", from: "grant", key: key) } == nil)
    }

    @Test(arguments: OddFile.allCases)
    func snapshotReadsAsAbsent(odd: OddFile) async throws {
        let container = try home.container()
        let (share, orders) = (share, orders)
        try container.snapshots.write(Snapshot(payload: Data("p".utf8), fetchedAt: Date(), expiresAt: Date()), kind: "entities", key: orders, share: share)
        let path = Snapshot.path(id: DataRequest.id(kind: "entities", canonicalKey: try DataRequest.canonicalKey(orders)))
        try plant(odd, at: path, in: container)
        #expect(try await promptly(odd, at: path, in: container) { try container.snapshots.read(kind: "entities", key: orders, using: share) } == nil)
    }

    @Test(arguments: OddFile.allCases)
    func requestIsSkippedAndTheOthersAreListed(odd: OddFile) async throws {
        let container = try home.container()
        let (share, sealingKey) = (share, sealingKey)
        let planted = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let other = try container.requests.submit(kind: "entities", key: EntityKey(destination: "us", entitySet: "orders"), share: share, sealingKey: sealingKey)
        let path = DataRequest.path(id: planted.id)
        try plant(odd, at: path, in: container)
        let pending = try await promptly(odd, at: path, in: container) { try container.requests.pending(sealingKey: sealingKey) }
        #expect(pending == [other])
    }

    @Test(arguments: OddFile.allCases)
    func eventIsNotSentAndTheOthersAre(odd: OddFile) async throws {
        let container = try home.container()
        let at = Date(timeIntervalSince1970: 1_800_000_000)  // whole seconds: events travel in milliseconds
        let (planted, other) = (QueuedEvent(name: "widget.render", timestamp: at), QueuedEvent(name: "widget.tap", timestamp: at))
        try container.events.enqueue(planted, sealingKey: sealingKey)
        try container.events.enqueue(other, sealingKey: sealingKey)
        let path = QueuedEvent.path(id: planted.id)
        try plant(odd, at: path, in: container)
        let sealingKey = sealingKey
        let delivered = try await promptly(odd, at: path, in: container) {
            Self.blocking { await Self.drained(container, sealingKey: sealingKey) }
        }
        #expect(delivered == [other])
    }

    @Test(arguments: OddFile.allCases)
    func configurationIsSkippedAndTheOthersAreListed(odd: OddFile) async throws {
        let container = try home.container()
        let small = RegisteredWidget(id: "small", kind: "orders", family: "systemSmall")
        let large = RegisteredWidget(id: "large", kind: "orders", family: "systemLarge")
        try container.widgets.register(small)
        try container.widgets.register(large)
        let path = RegisteredWidget.path(id: "small")
        try plant(odd, at: path, in: container)
        #expect(try await promptly(odd, at: path, in: container) { try container.widgets.configurations() } == [large])
    }

    @Test(arguments: OddFile.allCases)
    func leaseReadsAsAbsent(odd: OddFile) async throws {
        let container = try home.container()
        _ = try #require(try container.leases.acquire("token-refresh", duration: 60))
        let path = SharedContainer.leasePath("token-refresh")
        try plant(odd, at: path, in: container)
        #expect(try await promptly(odd, at: path, in: container) { try container.leases.current("token-refresh") } == nil)
    }

    @Test func aLinkedRemovalLockIsNotFollowed() throws {
        let container = try home.container()
        let lease = try #require(try container.leases.acquire("token-refresh", duration: 60))
        let target = elsewhere.appendingPathComponent("created-through-the-link")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: container.url("leases/.token-refresh.removal-lock").path, withDestinationPath: target.path)
        #expect(throws: SharedContainerError.self) { try container.leases.release(lease) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    // MARK: - Helpers

    static func drained(_ container: SharedContainer, sealingKey: SharedSealingKey) async -> [QueuedEvent] {
        var delivered: [QueuedEvent] = []
        await container.events.drain(sealingKey: sealingKey) { delivered = $0 }
        return delivered
    }

    /// Runs async work to completion on the calling thread (the time-limited thread).
    static func blocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value? {
        let box = Locked<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 }
    }
}
