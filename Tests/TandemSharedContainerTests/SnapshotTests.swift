import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Snapshots")
struct SnapshotTests {
    let home: ContainerHome
    let share: AuxiliaryShare
    let orders = EntityKey(destination: "eu", entitySet: "orders")
    let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
    let payload = Data("{\"orders\":[\"confidential-order-4711\"]}".utf8)

    init() throws {
        home = try ContainerHome()
        share = try .random()
    }

    var snapshot: Snapshot { Snapshot(payload: payload, fetchedAt: fetchedAt, etag: "\"v42\"", expiresAt: fetchedAt.addingTimeInterval(900)) }

    @Test func theHostsSnapshotReadsInTheWidgetFreshThenStaleWithItsAge() throws {
        try home.container().snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        let widget = try home.container()
        let fresh = try #require(try widget.snapshots.read(kind: "entities", key: orders, using: share, now: fetchedAt.addingTimeInterval(60)))
        #expect(fresh.snapshot == snapshot)
        #expect(fresh.freshness == .fresh)
        #expect(fresh.age == 60)
        let stale = try #require(try widget.snapshots.read(kind: "entities", key: orders, using: share, now: fetchedAt.addingTimeInterval(7200)))
        #expect(stale.freshness == .stale(age: 7200))
        #expect(try widget.snapshots.read(kind: "entities", key: EntityKey(destination: "us", entitySet: "orders"), using: share) == nil)
    }

    @Test func aSnapshotForARequestReadsUnderTheRequestsKindAndKey() throws {
        let sealingKey = try SharedSealingKey.provision(in: home.sharedSecrets)
        let container = try home.container()
        let request = try container.requests.submit(kind: "entities", key: orders, share: share, sealingKey: sealingKey)
        try container.snapshots.write(snapshot, for: request)
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: share)?.snapshot == snapshot)
    }

    @Test func thePayloadIsNeverInAPlainFile() throws {
        try home.container().snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        for (url, bytes) in try home.containerFiles() {
            for needle in [Data("confidential-order-4711".utf8), Data(payload.base64EncodedString().utf8)] {
                #expect(bytes.range(of: needle) == nil, "the payload is readable in \(url.lastPathComponent)")
            }
        }
    }

    @Test func anotherShareOrAMovedSnapshotReadsAsNoneWithALogLine() throws {
        let container = try home.container()
        try container.snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: .random()) == nil)
        let path = Snapshot.path(id: DataRequest.id(kind: "entities", canonicalKey: try DataRequest.canonicalKey(orders)))
        #expect(home.recorder.logged("ignoring an unreadable snapshot", "\(SharedContainerError.undecryptable(path: path))"))
        // Another key's snapshot put in this key's place does not pass for it.
        let us = EntityKey(destination: "us", entitySet: "orders")
        try container.snapshots.write(snapshot, kind: "entities", key: us, share: share)
        let usPath = Snapshot.path(id: DataRequest.id(kind: "entities", canonicalKey: try DataRequest.canonicalKey(us)))
        try FileManager.default.removeItem(at: container.url(path))
        try FileManager.default.copyItem(at: container.url(usPath), to: container.url(path))
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: share) == nil)
        #expect(try container.snapshots.read(kind: "entities", key: us, using: share)?.snapshot == snapshot)
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedSnapshotReadsAsNoneWithALogLine(damage: DamagedFile) throws {
        let container = try home.container()
        try container.snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        try container.snapshots.write(snapshot, kind: "summary", key: orders, share: share)
        let path = Snapshot.path(id: DataRequest.id(kind: "entities", canonicalKey: try DataRequest.canonicalKey(orders)))
        try damage.bytes(replacing: Data(contentsOf: container.url(path))).write(to: container.url(path))
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: share) == nil)
        #expect(home.recorder.logged("ignoring an unreadable snapshot", "\(damage.expectedError(path: path, kind: "snapshot", sealed: true))"))
        #expect(try container.snapshots.read(kind: "summary", key: orders, using: share)?.snapshot == snapshot)
    }

    @Test func aTamperedSnapshotReadsAsNone() throws {
        let container = try home.container()
        try container.snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        let path = Snapshot.path(id: DataRequest.id(kind: "entities", canonicalKey: try DataRequest.canonicalKey(orders)))
        var box = try SealedRecord.parse(Data(contentsOf: container.url(path)), kind: "snapshot", path: path).box
        box[box.count / 2] ^= 0x01
        try SealedRecord(kind: "snapshot", box: box).serialized().write(to: container.url(path))
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: share) == nil)
        #expect(home.recorder.logged("ignoring an unreadable snapshot", "\(SharedContainerError.undecryptable(path: path))"))
    }

    @Test func removingSnapshotsLeavesNoneToRead() throws {
        let container = try home.container()
        try container.snapshots.write(snapshot, kind: "entities", key: orders, share: share)
        try container.snapshots.write(snapshot, kind: "summary", key: orders, share: share)
        try container.snapshots.removeAll()
        #expect(try container.snapshots.read(kind: "entities", key: orders, using: share) == nil)
        #expect(try container.snapshots.read(kind: "summary", key: orders, using: share) == nil)
    }
}
