import Foundation
import TandemHost
import TandemPlatform
import TandemVault
import Testing

@testable import TandemSharedContainer

@Suite("Brokered fulfilment")
struct BrokeredFulfilmentTests {
    struct ServerDown: Error {}

    let home: BrokeredHome
    let vault: Vault
    let sealingKey: SharedSealingKey
    let widget: SharedContainer
    let broker: BrokeredFulfilment
    let orders = EntityKey(destination: "eu", entitySet: "orders")
    let payload = Data("{\"orders\":[\"confidential-order-4711\"]}".utf8)

    init() throws {
        home = try BrokeredHome()
        vault = try home.preparedVault()
        sealingKey = try SharedSealingKey.provision(in: home.sharedSecrets)
        widget = try home.container()
        broker = BrokeredFulfilment(vault: vault, container: try home.container(), sealingKey: sealingKey, logger: home.recorder.logger)
    }

    @Test func aRequestIsFetchedWithTheVaultOpenedByItsShareThenCompletedAndTheVaultLocked() async throws {
        let share = try home.share()
        let request = try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        var tokensSeen: [Data?] = []
        let outcomes = try await broker.fulfilPending { request, vault in
            tokensSeen.append(try vault.data(forKey: "refresh-token"))
            #expect(try request.decodeKey(EntityKey.self) == orders)
            return FetchedData(payload: payload, etag: "\"v1\"", lifetime: 900)
        }
        #expect(tokensSeen == [BrokeredHome.refreshToken])
        guard case .fulfilled(let done, let snapshot) = try #require(outcomes.first) else { throw Unexpected(outcomes) }
        #expect(done == request)
        #expect(snapshot.payload == payload && snapshot.etag == "\"v1\"" && snapshot.expiresAt == snapshot.fetchedAt.addingTimeInterval(900))
        let reading = try #require(try widget.snapshots.read(kind: "entities", key: orders, using: share, now: snapshot.fetchedAt))
        #expect(reading.snapshot == snapshot && reading.freshness == .fresh)
        #expect(try widget.requests.pending(sealingKey: sealingKey).isEmpty)
        #expect(vault.isUnlocked == false)
    }

    @Test func wrongShareIsRefusedAndNothingIsFetched() async throws {
        let request = try widget.requests.submit(kind: "entities", key: orders, share: .random(), sealingKey: sealingKey)
        var fetches = 0
        let outcomes = await broker.fulfil([request]) { _, _ in
            fetches += 1
            return FetchedData(payload: payload, lifetime: 900)
        }
        #expect(fetches == 0)
        guard case .refused(let refused) = try #require(outcomes.first) else { throw Unexpected(outcomes) }
        #expect(refused == request)
        #expect(try widget.requests.pending(sealingKey: sealingKey).isEmpty, "a refused request is removed")
        #expect(try home.containerFiles().allSatisfy { !$0.0.path.contains("/snapshots/") })
        #expect(vault.isUnlocked == false)
        #expect(home.recorder.logged("request refused"))
    }

    @Test func aShareRotatedAwayIsRefusedAndTheCurrentOneServed() async throws {
        let old = try home.share()
        try vault.unlock(passcode: "correct-horse-7")
        try vault.rotatePairedKey(shared: home.sharedSecrets)
        vault.lock()
        let stale = try widget.requests.submit(kind: "entities", key: orders, share: old, sealingKey: sealingKey)
        let current = try widget.requests.submit(kind: "summary", key: orders, share: home.share(), sealingKey: sealingKey, now: Date().addingTimeInterval(1))
        var fetched: [String] = []
        let outcomes = await broker.fulfil([stale, current]) { request, _ in
            fetched.append(request.kind)
            return FetchedData(payload: payload, lifetime: 900)
        }
        #expect(fetched == ["summary"])
        #expect(outcomes.map(\.request) == [stale, current])
        #expect(outcomes.map(\.isFulfilled) == [false, true])
    }

    @Test func aFailedFetchLeavesItsRequestPendingWithNothingWrittenAndTheOthersProceed() async throws {
        let share = try home.share()
        let failing = try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let working = try widget.requests.submit(kind: "summary", key: orders, share: share, sealingKey: sealingKey, now: Date().addingTimeInterval(1))
        let outcomes = await broker.fulfil([failing, working]) { request, vault in
            #expect(vault.isUnlocked)
            if request.kind == "entities" { throw ServerDown() }
            return FetchedData(payload: payload, lifetime: 900)
        }
        guard case .failed(_, .fetch(let error)) = try #require(outcomes.first) else { throw Unexpected(outcomes) }
        #expect(error is ServerDown)
        #expect(outcomes.last?.isFulfilled == true)
        #expect(try widget.requests.pending(sealingKey: sealingKey) == [failing])
        #expect(try widget.snapshots.read(kind: "entities", key: orders, using: share) == nil)
        let snapshotFiles = try FileManager.default.contentsOfDirectory(atPath: home.containerDirectory.appendingPathComponent("snapshots").path)
        #expect(snapshotFiles.count == 1, "only the working request's snapshot, no temporary file: \(snapshotFiles)")
        #expect(vault.isUnlocked == false)
    }

    @Test func aSnapshotThatCannotBeWrittenLeavesTheRequestPending() async throws {
        let share = try home.share()
        let request = try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        // A directory where the snapshot file should go makes the final rename fail.
        try FileManager.default.createDirectory(at: widget.url(Snapshot.path(id: request.id)), withIntermediateDirectories: false)
        let outcomes = await broker.fulfil([request]) { _, _ in FetchedData(payload: payload, lifetime: 900) }
        guard case .failed(_, .container(.io)) = try #require(outcomes.first) else { throw Unexpected(outcomes) }
        #expect(try widget.requests.pending(sealingKey: sealingKey) == [request])
        let snapshotFiles = try FileManager.default.contentsOfDirectory(atPath: home.containerDirectory.appendingPathComponent("snapshots").path)
        #expect(snapshotFiles == ["\(request.id).snapshot"], "no temporary file left: \(snapshotFiles)")
        #expect(vault.isUnlocked == false)
    }

    @Test func aVaultThatDoesNotOpenFailsTheRequestWithoutFetching() async throws {
        let request = try widget.requests.submit(kind: "entities", key: orders, share: home.share(), sealingKey: sealingKey)
        let missing = Vault(directory: home.root.appendingPathComponent("elsewhere"), secrets: home.hostSecrets)
        let elsewhere = BrokeredFulfilment(vault: missing, container: try home.container(), sealingKey: sealingKey, logger: home.recorder.logger)
        var fetches = 0
        let outcomes = await elsewhere.fulfil([request]) { _, _ in
            fetches += 1
            return FetchedData(payload: payload, lifetime: 900)
        }
        guard case .failed(_, .vault) = try #require(outcomes.first) else { throw Unexpected(outcomes) }
        #expect(fetches == 0)
        #expect(try widget.requests.pending(sealingKey: sealingKey) == [request])
    }

    @Test func aNewerRequestWrittenDuringTheFetchStaysPending() async throws {
        let share = try home.share()
        let request = try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        var newer: DataRequest?
        let outcomes = await broker.fulfil([request]) { _, _ in
            newer = try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey, now: Date().addingTimeInterval(1))
            return FetchedData(payload: payload, lifetime: 900)
        }
        #expect(outcomes.first?.isFulfilled == true)
        #expect(try widget.requests.pending(sealingKey: sealingKey) == [try #require(newer)])
    }

    @Test func noShareTokenOrPayloadIsReadableInAnyFileOfTheContainer() async throws {
        let share = try home.share()
        try widget.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        try widget.requests.submit(kind: "summary", key: orders, share: share, sealingKey: sealingKey)
        _ = try await broker.fulfilPending { request, vault in
            try vault.set(Data("rotated-refresh-token-987654321".utf8), forKey: "refresh-token")
            if request.kind == "summary" { throw ServerDown() }
            return FetchedData(payload: payload, lifetime: 900)
        }
        let secrets = [share.bytes, share.serialized, BrokeredHome.refreshToken, Data("rotated-refresh-token-987654321".utf8),
                       Data("confidential-order-4711".utf8)]
        let files = try home.containerFiles()
        #expect(files.count == 2, "one snapshot and one pending request")
        for (url, bytes) in files {
            for secret in secrets {
                #expect(bytes.range(of: secret) == nil, "\(url.lastPathComponent) holds a secret in the clear")
                #expect(bytes.range(of: Data(secret.base64EncodedString().utf8)) == nil, "\(url.lastPathComponent) holds a secret in base64")
            }
        }
    }
}

/// Fails a test with the outcomes it did not expect.
struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ outcomes: [FulfilmentOutcome]) { description = "unexpected outcomes: \(outcomes)" }
}

extension FulfilmentOutcome {
    var isFulfilled: Bool {
        if case .fulfilled = self { return true }
        return false
    }
}
