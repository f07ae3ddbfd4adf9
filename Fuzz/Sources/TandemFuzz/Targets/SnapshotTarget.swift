import Foundation
@testable import TandemSharedContainer

/// Snapshots (`Sources/TandemSharedContainer/Snapshots/`), read by a widget with
/// `SnapshotStore.read(kind:key:using:now:)`. The first byte picks what the rest is: (even) the
/// bytes of a snapshot file; (odd) a snapshot's plaintext, sealed under the snapshots' key as
/// the host (or anyone holding the share) seals it.
///
/// Invariants: a snapshot file that opens is the one the host wrote; a snapshot that reads
/// is written again and reads back equal, with the same freshness.
enum SnapshotTarget {
    static let kind = "orders"
    static let key = RequestTarget.Key(destination: "orders", page: 1)

    static var written: Snapshot {
        let now = FuzzFixtures.shared.now
        return Snapshot(
            payload: Data(#"{"rows":[{"title":"Order 1042","value":"€18.40"}]}"#.utf8), fetchedAt: now, etag: "\"v7\"",
            expiresAt: now.addingTimeInterval(900))
    }

    static var path: String {
        Snapshot.path(id: DataRequest.id(kind: kind, canonicalKey: (try? DataRequest.canonicalKey(key)) ?? Data()))
    }

    static var sealingKey: ContainerKey { ContainerKey(share: FuzzFixtures.shared.share, purpose: .snapshots) }

    static let target = FuzzTarget(
        name: "snapshot",
        summary: "a snapshot file (raw, or a plaintext sealed under the snapshots' key) read with SnapshotStore.read",
        seeds: {
            let fixtures = FuzzFixtures.shared
            try? fixtures.container.snapshots.write(written, kind: kind, key: key, share: fixtures.share)
            guard let record = fixtures.contents(at: path) else { return [] }
            var seeds = [Data([0]) + record]
            if let plaintext = try? fixtures.container.sealed.read(kind: Snapshot.recordKind, from: path, key: sealingKey) {
                seeds.append(Data([1]) + plaintext)
            }
            return seeds
        },
        run: run
    )

    static func run(_ input: Data) {
        let fixtures = FuzzFixtures.shared
        let snapshots = fixtures.container.snapshots
        let forged = input.first.map { $0 % 2 == 1 } ?? false
        let body = Data(input.dropFirst())
        if forged {
            guard (try? fixtures.container.sealed.write(body, kind: Snapshot.recordKind, to: path, key: sealingKey)) != nil else { return }
        } else {
            fixtures.plant(body, at: path)
        }

        guard let reading = try? snapshots.read(kind: kind, key: key, using: fixtures.share, now: fixtures.now) else { return }
        if !forged {
            Invariant.expect(reading.snapshot == written, "a snapshot file opened to a snapshot nobody sealed")
        }
        Invariant.expect(reading == SnapshotReading(snapshot: reading.snapshot, now: fixtures.now), "the same snapshot read with two freshnesses")
        do {
            try snapshots.write(reading.snapshot, kind: kind, key: key, share: fixtures.share)
        } catch {
            return
        }
        let again = try? snapshots.read(kind: kind, key: key, using: fixtures.share, now: fixtures.now)
        Invariant.expect(again == reading, "a snapshot written again read back as \(String(describing: again)), not \(reading)")
    }
}
