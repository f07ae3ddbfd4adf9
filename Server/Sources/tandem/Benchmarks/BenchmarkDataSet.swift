import Foundation
import TandemTool

/// The items both sides of the benchmark store and read: the same keys, the same random
/// values, the same shuffled write and read orders.
///
/// Keys are written in a shuffled order, as an app's keys arrive: written in sorted order, the
/// plain table would only ever append to the last page of its index — a best case no app has —
/// while the vault's ids (HMACs of the names) land at random whatever the order.
struct BenchmarkDataSet: Sendable {
    /// The item names, `item-000000` and up.
    let keys: [String]
    /// Each key's UTF-8 bytes: the baseline's row id.
    let ids: [Data]
    /// Random values, one per key.
    let values: [Data]
    /// Every index once, shuffled: the write phase's order.
    let writeOrder: [Int]
    /// Every index once, shuffled again: the read phase's order.
    let readOrder: [Int]

    /// Makes `count` items of `valueSize` random bytes.
    init(count: Int, valueSize: Int) {
        var generator = SystemRandomNumberGenerator()
        keys = (0..<count).map { String(format: "item-%06d", $0) }
        ids = keys.map { Data($0.utf8) }
        values = (0..<count).map { _ in Self.randomData(count: valueSize, using: &generator) }
        writeOrder = Array(0..<count).shuffled(using: &generator)
        readOrder = Array(0..<count).shuffled(using: &generator)
    }

    /// Checks that every read returned exactly the bytes written.
    ///
    /// - Parameter side: Names the store in the error.
    /// - Throws: ``CommandFailure`` naming the first item that differs.
    func verify(_ results: [Data?], side: String) throws {
        for index in values.indices where results[index] != values[index] {
            let got = results[index].map { "\($0.count) different bytes" } ?? "nothing"
            throw CommandFailure("benchmark invalid: \(side) read of \(keys[index]) returned \(got)")
        }
    }

    private static func randomData(count: Int, using generator: inout SystemRandomNumberGenerator) -> Data {
        // Eight bytes per call: each call is a system call on Linux.
        let words = (0..<(count + 7) / 8).map { _ in generator.next() as UInt64 }
        return words.withUnsafeBytes { Data($0.prefix(count)) }
    }
}
