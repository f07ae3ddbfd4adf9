import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Data requests")
struct DataRequestTests {
    let home: ContainerHome
    let sealingKey: SharedSealingKey
    let share: AuxiliaryShare
    let orders = EntityKey(destination: "eu", entitySet: "orders")

    init() throws {
        home = try ContainerHome()
        sealingKey = try SharedSealingKey.provision(in: home.sharedSecrets)
        share = try .random()
    }

    @Test func aRequestWrittenByTheWidgetIsListedByTheHostWithItsKeyAndShare() throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000.25)
        let written = try home.container().requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey, now: created)
        let pending = try home.container().requests.pending(sealingKey: sealingKey)
        #expect(pending == [written])
        let request = try #require(pending.first)
        #expect(request.kind == "entities")
        #expect(request.createdAt == created)
        #expect(try request.decodeKey(EntityKey.self) == orders)
        #expect(request.share == share)
        #expect(!"\(request)".contains(share.bytes.base64EncodedString()))
    }

    @Test func theSameKindAndKeyIsOneRequestTheNewer() throws {
        let container = try home.container()
        let now = Date()
        try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey, now: now)
        let newer = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey, now: now.addingTimeInterval(5))
        #expect(try container.requests.pending(sealingKey: sealingKey) == [newer])
        // Key order does not matter; another key or kind is another request.
        try container.requests.submit(kind: "entities", key: ["b": "2", "a": "1"], share: share, sealingKey: sealingKey, now: now)
        try container.requests.submit(kind: "entities", key: ["a": "1", "b": "2"], share: share, sealingKey: sealingKey, now: now)
        try container.requests.submit(kind: "entities", key: EntityKey(destination: "us", entitySet: "orders"), share: share, sealingKey: sealingKey, now: now)
        try container.requests.submit(kind: "summary", key: orders, share: share, sealingKey: sealingKey, now: now)
        #expect(try container.requests.pending(sealingKey: sealingKey).count == 4)
    }

    @Test func completingRemovesTheRequestButNotANewerOneForTheSameData() throws {
        let container = try home.container()
        let older = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let newer = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        #expect(container.requests.complete(older) == false)
        #expect(try container.requests.pending(sealingKey: sealingKey) == [newer])
        #expect(container.requests.complete(newer))
        #expect(try container.requests.pending(sealingKey: sealingKey).isEmpty)
        #expect(container.requests.complete(newer) == false)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.containerDirectory.appendingPathComponent("requests").path)
        #expect(leftovers.isEmpty)
    }

    @Test func unansweredRequestsCountUpUntilTheHostCompletesOne() throws {
        let container = try home.container()
        let first = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        #expect(first.attempt == 1)
        // Another process (the widget after iOS discarded it) asks again: the count is in the file.
        let second = try home.container().requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        #expect(second.attempt == 2)
        #expect(try container.requests.pending(sealingKey: sealingKey).map(\.attempt) == [2])
        // Another key counts on its own; the host's completion ends the run.
        #expect(try container.requests.submit(kind: "summary", key: orders, share: share, sealingKey: sealingKey).attempt == 1)
        #expect(container.requests.complete(second))
        #expect(try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey).attempt == 1)
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedOrForeignRequestCountsAsNone(damage: DamagedFile) throws {
        let container = try home.container()
        var last = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        for _ in 0..<3 { last = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey) }
        #expect(last.attempt == 4)
        try damage.bytes(replacing: last.record).write(to: container.url(DataRequest.path(id: last.id)))
        #expect(try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey).attempt == 1)

        // Sealed under a key the widget does not hold: someone else's file, so no count either.
        let stranger = try ContainerHome()
        let otherKey = try SharedSealingKey.provision(in: stranger.sharedSecrets)
        for _ in 0..<5 { try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: otherKey) }
        #expect(try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey).attempt == 1)
    }

    @Test func theShareIsNeverInAPlainFile() throws {
        let container = try home.container()
        try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        for (url, bytes) in try home.containerFiles() {
            for needle in [share.bytes, share.serialized, Data(share.bytes.base64EncodedString().utf8), Data(share.serialized.base64EncodedString().utf8)] {
                #expect(bytes.range(of: needle) == nil, "the share is readable in \(url.lastPathComponent)")
            }
        }
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedRequestIsSkippedWithALogLineAndTheOthersStillRead(damage: DamagedFile) throws {
        let container = try home.container()
        let damaged = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let valid = try container.requests.submit(kind: "summary", key: orders, share: share, sealingKey: sealingKey)
        try damage.bytes(replacing: damaged.record).write(to: container.url(DataRequest.path(id: damaged.id)))
        #expect(try container.requests.pending(sealingKey: sealingKey) == [valid])
        let path = DataRequest.path(id: damaged.id)
        #expect(home.recorder.logged("skipping an unreadable shared record", "path=\(path)", "\(damage.expectedError(path: path, kind: "request", sealed: true))"))
    }

    @Test func requestsSealedUnderAnotherKeyTamperedOrMisnamedAreSkipped() throws {
        let container = try home.container()
        let valid = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        let otherKey = try SharedSealingKey.provision(in: FileSecretStorage(directory: home.root.appendingPathComponent("other-secrets")))
        let foreign = try container.requests.submit(kind: "summary", key: orders, share: share, sealingKey: otherKey)
        // A valid request copied under another name: it opens under no name but its own.
        try valid.record.write(to: container.url("requests/\(String(repeating: "0", count: 64)).request"))
        try Data("stray".utf8).write(to: container.url("requests/notes.txt"))
        #expect(try container.requests.pending(sealingKey: sealingKey) == [valid])
        #expect(home.recorder.logged("skipping", "\(SharedContainerError.undecryptable(path: DataRequest.path(id: foreign.id)))"))
        #expect(home.recorder.logged("skipping", "\(SharedContainerError.undecryptable(path: "requests/\(String(repeating: "0", count: 64)).request"))"))
        #expect(home.recorder.logged("ignoring a foreign file", "path=requests/notes.txt"))
    }

    @Test func invalidKindsAndUnencodableKeysAreRefused() throws {
        let container = try home.container()
        #expect(throws: SharedContainerError.invalidName("../x")) { try container.requests.submit(kind: "../x", key: orders, share: share, sealingKey: sealingKey) }
        #expect(throws: SharedContainerError.self) { try container.requests.submit(kind: "entities", key: Double.nan, share: share, sealingKey: sealingKey) }
        #expect(try container.requests.pending(sealingKey: sealingKey).isEmpty)
    }
}
