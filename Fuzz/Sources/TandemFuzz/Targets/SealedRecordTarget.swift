import Foundation
import TandemSharedContainer

/// Sealed records (`Sources/TandemSharedContainer/Sealed/`): the bytes of a record file, which
/// anyone with App Group access may write, read through `SealedRecords.read`.
///
/// Invariants: a record that opens under the key is the one the key's holder wrote (the header,
/// the old JSON envelope and the box are all parsed before the tag is checked, and none of them
/// may let other bytes through); `read(…, ifChangedFrom:)` says `.unchanged` exactly for the
/// bytes it was given; and any bytes sealed with `write` read back as themselves.
enum SealedRecordTarget {
    static let kind = "configuration"
    static let path = "configurations/fuzz.configuration"
    static let written = Data(#"{"server":"https://tandem.example","clientID":"widget"}"#.utf8)

    static let target = FuzzTarget(
        name: "sealed-record",
        summary: "a sealed record file read with SealedRecords.read; what opens is what was written",
        seeds: {
            let fixtures = FuzzFixtures.shared
            let sealed = fixtures.container.sealed
            var seeds: [Data] = []
            // Two records of the one plaintext, under different nonces.
            for _ in 0..<2 {
                try? sealed.write(written, kind: kind, to: path, key: key)
                seeds += fixtures.contents(at: path).map { [$0] } ?? []
            }
            // The JSON envelope of version 1, as an earlier release wrote it.
            seeds.append(Data(#"{"body":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","format":"tandem.shared","kind":"configuration","version":1}"#.utf8))
            return seeds
        },
        run: run
    )

    static var key: ContainerKey { ContainerKey(share: FuzzFixtures.shared.share, purpose: .grant) }

    /// The record the container holds before each input: `written`, sealed under `key`.
    nonisolated(unsafe) private static var original: Data?

    static func run(_ input: Data) {
        let fixtures = FuzzFixtures.shared
        let sealed = fixtures.container.sealed
        let original = originalRecord()

        fixtures.plant(input, at: path)
        if let opened = try? sealed.read(kind: kind, from: path, key: key) {
            Invariant.expect(opened == written, "a record opened under the key to \(opened.count) bytes nobody sealed")
        }
        switch try? sealed.read(kind: kind, from: path, key: key, ifChangedFrom: original) {
        case .unchanged:
            Invariant.expect(input == original, "read(ifChangedFrom:) called different bytes unchanged")
        case .opened(let plaintext, let record):
            Invariant.expect(plaintext == written && record == input, "read(ifChangedFrom:) opened a record nobody sealed")
        case .missing, nil:
            break
        }

        // The same bytes as a plaintext: sealing them and reading back gives them again.
        let roundTrip = "configurations/round-trip.configuration"
        guard (try? sealed.write(input, kind: kind, to: roundTrip, key: key)) != nil else { return }
        let readBack = try? sealed.read(kind: kind, from: roundTrip, key: key)
        Invariant.expect(readBack == input, "\(input.count) bytes sealed with write did not read back as themselves")
    }

    private static func originalRecord() -> Data {
        if let original { return original }
        let fixtures = FuzzFixtures.shared
        try? fixtures.container.sealed.write(written, kind: kind, to: path, key: key)
        let record = fixtures.contents(at: path) ?? Data()
        original = record
        return record
    }
}
