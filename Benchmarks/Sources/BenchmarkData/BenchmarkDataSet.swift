import Foundation

/// The rows every store under comparison holds: the same keys, the same random values, the same
/// shuffled write and read orders, and the same durability settings.
///
/// Keys are visited in a shuffled order, as an app's keys arrive: in sorted order the plain
/// table would only ever touch the last page of its index — a best case no app has — while the
/// vault's ids (HMACs of the names) land at random whatever the order.
public struct BenchmarkDataSet: Sendable {
    /// The item names, `item-000000` and up.
    public let keys: [String]
    /// Each key's UTF-8 bytes: the baselines' row id.
    public let ids: [Data]
    /// Random values, one per key.
    public let values: [Data]
    /// Every index once, shuffled: the write order.
    public let writeOrder: [Int]
    /// Every index once, shuffled again: the read order.
    public let readOrder: [Int]

    /// Items in the standard data set.
    public static let standardCount = 10_000
    /// Bytes per value in the standard data set: about a token response.
    public static let standardValueSize = 1024
    /// Operations per measured sample (ordo-one's `.kilo` scaling factor).
    public static let operationsPerSample = 1000
    /// Writes per transaction in the batched benchmarks.
    public static let batchSize = 10

    /// The data set every benchmark uses. The values come from a seeded generator, so that a
    /// separate process (the SQLCipher benchmark) stores exactly the same rows.
    public static let standard = BenchmarkDataSet(count: standardCount, valueSize: standardValueSize)

    /// Makes `count` items of `valueSize` pseudo-random bytes (the same on every call).
    public init(count: Int, valueSize: Int, seed: UInt64 = 0x7A4D_E3B1_0C55_9F21) {
        var generator = SplitMix64(seed: seed)
        keys = (0..<count).map { String(format: "item-%06d", $0) }
        ids = keys.map { Data($0.utf8) }
        values = (0..<count).map { _ in
            let words = (0..<(valueSize + 7) / 8).map { _ in generator.next() }
            return words.withUnsafeBytes { Data($0.prefix(valueSize)) }
        }
        writeOrder = Array(0..<count).shuffled(using: &generator)
        readOrder = Array(0..<count).shuffled(using: &generator)
    }

    /// A value other than `values[index]` of the same size: what an overwrite stores.
    public func replacement(for index: Int) -> Data {
        values[(index + 1) % values.count]
    }
}

/// The durability every store under comparison runs with: the vault database's settings
/// (see `VaultDatabase`), so that the comparison measures the vault's cryptography, not a
/// cheaper journal.
public enum BenchmarkDurability {
    /// `PRAGMA journal_mode`.
    public static let journalMode = "WAL"
    /// `PRAGMA synchronous` for an ordinary write.
    public static let synchronous = "NORMAL"
}

/// A small deterministic generator (SplitMix64): reproducible values without a system call per word.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
