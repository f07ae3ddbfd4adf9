import Foundation

/// A keyed digest of the vault's item set: the XOR, over every stored item, of
/// HMAC-SHA256(item-set key, id ‖ nonce of its sealed box) (``DataKey/itemTag(id:nonce:)``).
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
            func word(_ index: Int) -> UInt64 { UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
            return SIMD4(word(0), word(1), word(2), word(3))
        }
        guard let words else { return nil }
        self.words = words
    }

    /// Writes the digest's 32 bytes (big-endian words) at the start of `buffer`, which holds at
    /// least ``byteCount`` bytes.
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        for index in 0..<4 { buffer.storeBytes(of: words[index].bigEndian, toByteOffset: index * 8, as: UInt64.self) }
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
/// Every write seals a new record where the write lands anyway, so that binding the set costs no
/// extra page and no extra seal: inside the box of the item it stores, after the value
/// (``DataKey/seal(_:itemID:nonce:record:)``, with the sequence repeated in the row's `item_seq`
/// column), or on its own in `vault_meta` under `item-set` when it removes an item or raises the
/// generation. The record that counts is the one with the highest `sequence`; the others are left
/// behind by earlier writes.
struct ItemSetRecord: Sendable, Equatable {
    /// Its key in `vault_meta`.
    static let metaKey = "item-set"

    var generation: UInt64
    /// The number of the write that sealed it; each write's is one more than the last.
    var sequence: UInt64
    var digest: ItemSetDigest

    /// Bytes of ``serialized``: generation, sequence (big-endian) and digest.
    static let serializedByteCount = 16 + ItemSetDigest.byteCount

    /// The record as sealed: generation ‖ sequence ‖ digest, written into one buffer (a write
    /// seals one record, so this is on every write's path).
    var serialized: Data {
        var data = Data(count: Self.serializedByteCount)
        data.withUnsafeMutableBytes { write(into: $0) }
        return data
    }

    /// Writes ``serialized`` at the start of `buffer`, which holds at least
    /// ``serializedByteCount`` bytes.
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        buffer.storeBytes(of: generation.bigEndian, toByteOffset: 0, as: UInt64.self)
        buffer.storeBytes(of: sequence.bigEndian, toByteOffset: 8, as: UInt64.self)
        digest.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[16...]))
    }

    init(generation: UInt64, sequence: UInt64, digest: ItemSetDigest) {
        self.generation = generation
        self.sequence = sequence
        self.digest = digest
    }

    init?(serialized data: Data) {
        guard data.count == Self.serializedByteCount else { return nil }
        let fields: (UInt64, UInt64, ItemSetDigest?) = data.withUnsafeBytes { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                ItemSetDigest(bytes: UnsafeRawBufferPointer(rebasing: raw[16...]))
            )
        }
        guard let digest = fields.2 else { return nil }
        self.generation = fields.0
        self.sequence = fields.1
        self.digest = digest
    }

    /// The record after one more write that changed the digest by `change`.
    func next(generation: UInt64? = nil, change: ItemSetDigest) -> ItemSetRecord {
        ItemSetRecord(generation: generation ?? self.generation, sequence: sequence + 1, digest: digest.toggling(change))
    }

    /// A record as a session last saw it, with the file's data version at the time
    /// (``VaultDatabase/Writer/dataVersion()``): while that is unchanged, no other connection
    /// has written and the record is current.
    struct Cached: Sendable {
        var record: ItemSetRecord
        var dataVersion: Int
    }
}
