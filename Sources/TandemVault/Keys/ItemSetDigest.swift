import Foundation

/// A keyed digest of the vault's item set: the XOR, over every stored item, of
/// HMAC-SHA256(item-set key, id ‖ sealed box).
///
/// XOR makes it incremental: writing an item removes its old tag and adds the new one, in
/// O(1) whatever the vault's size. The tags are keyed and the digest is stored only sealed
/// (``ItemSetRecord``), so someone holding the file learns nothing with which to balance a
/// change; any item put back, removed, added or moved changes the digest.
struct ItemSetDigest: Sendable, Equatable {
    private var words: SIMD4<UInt64>

    /// The digest of no items.
    static let empty = ItemSetDigest(words: .zero)

    static let byteCount = 32

    private init(words: SIMD4<UInt64>) { self.words = words }

    /// The digest held in `bytes`, or `nil` when they are not 32 bytes.
    init?(bytes: some ContiguousBytes) {
        let words: SIMD4<UInt64>? = bytes.withUnsafeBytes { raw in
            guard raw.count == Self.byteCount else { return nil }
            return SIMD4((0..<4).map { UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) })
        }
        guard let words else { return nil }
        self.words = words
    }

    var bytes: Data {
        var data = Data(capacity: Self.byteCount)
        for index in 0..<4 { data.append(words[index].bigEndianBytes) }
        return data
    }

    /// Adds `tag` if absent, removes it if present (XOR).
    mutating func toggle(_ tag: ItemSetDigest) { words ^= tag.words }

    /// This digest with `tag` toggled.
    func toggling(_ tag: ItemSetDigest) -> ItemSetDigest { ItemSetDigest(words: words ^ tag.words) }
}

/// The item-set record: the item-set digest, the generation it belongs to and its place in the
/// order of writes. Binding the generation means that after the generation is raised, an earlier
/// record (with the earlier rows it matched) no longer fits the file.
///
/// Every write seals a new record and stores it where the write lands anyway, so that binding
/// the set costs no extra page: in the row of the item it stores (columns `item_seq`, in the
/// clear, and `item_set`, sealed), or in `vault_meta` under `item-set` when it removes an item or
/// raises the generation. The record that counts is the one with the highest `sequence`; the
/// others are left behind by earlier writes.
struct ItemSetRecord: Sendable, Equatable {
    /// Its key in `vault_meta`.
    static let metaKey = "item-set"

    var generation: UInt64
    /// The number of the write that sealed it; each write's is one more than the last.
    var sequence: UInt64
    var digest: ItemSetDigest

    var serialized: Data { generation.bigEndianBytes + sequence.bigEndianBytes + digest.bytes }

    init(generation: UInt64, sequence: UInt64, digest: ItemSetDigest) {
        self.generation = generation
        self.sequence = sequence
        self.digest = digest
    }

    init?(serialized data: Data) {
        guard data.count == 16 + ItemSetDigest.byteCount,
            let generation = UInt64(bigEndianBytes: Data(data.prefix(8))),
            let sequence = UInt64(bigEndianBytes: Data(data.dropFirst(8).prefix(8))),
            let digest = ItemSetDigest(bytes: data.dropFirst(16))
        else { return nil }
        self.generation = generation
        self.sequence = sequence
        self.digest = digest
    }

    /// The record after one more write that changed the digest by `change`.
    func next(generation: UInt64? = nil, change: ItemSetDigest) -> ItemSetRecord {
        ItemSetRecord(generation: generation ?? self.generation, sequence: sequence + 1, digest: digest.toggling(change))
    }

    /// A record as a session last saw it, with the database's `PRAGMA data_version` at the
    /// time: while that is unchanged, no other connection has written and the record is current.
    struct Cached: Sendable {
        var record: ItemSetRecord
        var dataVersion: Int
    }
}
