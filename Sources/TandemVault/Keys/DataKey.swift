import Crypto
import Foundation

/// The unlocked vault's key material: the random data key (DEK) and the keys derived from it.
///
/// Items are sealed with AES-GCM under a key derived from the DEK, with a fresh random nonce
/// per write and associated data binding the format version, the vault's store id and the
/// item's id, so a sealed value copied onto another item or into another vault fails to open.
/// Item names are stored only as (truncated) HMAC-SHA256 under a second derived key; a third
/// keys the tags of the item-set digest (``ItemSetDigest``).
/// `SymmetricKey` keeps its bytes in memory that is zeroed when released, which is what
/// ``Vault/lock()`` relies on to wipe the keys.
struct DataKey: Sendable {
    /// The wrapped secret; only key slots see it.
    let key: SymmetricKey
    let storeID: Data
    private let itemKey: SymmetricKey
    /// HMAC keyed once per unlock; each item id copies its state instead of keying anew
    /// (keying costs about as much as the rest of the MAC).
    private let indexMAC: HMAC<SHA256>
    private let itemSetMAC: HMAC<SHA256>
    private let itemAADPrefix: Data
    private let itemSetAAD: Data

    static let formatVersion: UInt8 = 1

    init(key: SymmetricKey, storeID: Data) {
        self.key = key
        self.storeID = storeID
        itemKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: storeID, info: Data("tandem.vault.item-encryption".utf8), outputByteCount: 32)
        let indexKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: storeID, info: Data("tandem.vault.item-index".utf8), outputByteCount: 32)
        indexMAC = HMAC<SHA256>(key: indexKey)
        let itemSetKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: storeID, info: Data("tandem.vault.item-set".utf8), outputByteCount: 32)
        itemSetMAC = HMAC<SHA256>(key: itemSetKey)
        var prefix = Data("tandem.vault.item".utf8)
        prefix.append(Self.formatVersion)
        prefix.append(storeID)
        itemAADPrefix = prefix
        itemSetAAD = Data("tandem.vault.item-set".utf8) + [Self.formatVersion] + storeID
    }

    /// A fresh random data key for a new vault.
    static func generate(storeID: Data) -> DataKey {
        DataKey(key: SymmetricKey(size: .bits256), storeID: storeID)
    }

    /// The stored id of the item called `name`: HMAC-SHA256(index key, name) truncated to
    /// 128 bits, which keeps collisions out of reach (about 2^-64 at 2^32 items) while keeping
    /// the primary-key index small — ids are random, so every write lands on a random page.
    func itemID(for name: String) -> Data {
        var mac = indexMAC
        mac.update(data: Data(name.utf8))
        return Data(mac.finalize().prefix(Self.itemIDLength))
    }

    static let itemIDLength = 16

    /// Seals `plaintext` for the item with `itemID` (nonce ‖ ciphertext ‖ tag).
    func seal(_ plaintext: Data, itemID: Data) throws(VaultError) -> Data {
        try Self.seal(plaintext, key: itemKey, associatedData: itemAADPrefix + itemID)
    }

    /// Opens a sealed item; any modification of `sealed` (or a box moved from another item)
    /// is ``VaultError/tampered(_:)``.
    func open(_ sealed: Data, itemID: Data, name: String) throws(VaultError) -> Data {
        guard let plaintext = Self.open(sealed, key: itemKey, associatedData: itemAADPrefix + itemID) else {
            throw .tampered("item \(name.debugDescription)")
        }
        return plaintext
    }

    /// The item's contribution to the ``ItemSetDigest``: HMAC(item-set key, len(id) ‖ id ‖
    /// nonce ‖ GCM tag) of its sealed box.
    ///
    /// The nonce and the GCM tag stand for the whole box: the box's ciphertext is authenticated
    /// by the tag under the item key (with the id bound as associated data), so no other box that
    /// opens can share them, and every box written has a fresh random nonce. Hashing 28 bytes
    /// instead of the whole value keeps a write's digest update cheap whatever the value's size;
    /// a box whose ciphertext alone was edited fails when the item is opened.
    func itemTag(id: Data, sealed: Data) -> ItemSetDigest {
        itemTag(id: id, head: sealed.prefix(Self.nonceByteCount), tail: sealed.suffix(Self.tagByteCount))
    }

    /// The same tag from the box's ends as the database returns them (its first 12 and last
    /// 16 bytes, overlapping in a box shorter than 28 bytes, as `prefix` and `suffix` do).
    func itemTag(id: Data, boxEnds: Data) -> ItemSetDigest {
        itemTag(id: id, head: boxEnds, tail: Data())
    }

    /// HMAC(item-set key, len(id) ‖ id ‖ head ‖ tail), its message laid out in one buffer so
    /// that the MAC takes it in one update.
    private func itemTag(id: Data, head: Data, tail: Data) -> ItemSetDigest {
        let length = 8 + id.count + head.count + tail.count
        return withUnsafeTemporaryAllocation(byteCount: length, alignment: 8) { buffer in
            buffer.storeBytes(of: UInt64(id.count).bigEndian, as: UInt64.self)
            // `Data.withUnsafeBytes` and a memcpy: `DataProtocol.copyBytes(to:)` copies
            // through the generic collection path, which cost more than the MAC itself.
            var offset = 8
            func append(_ part: Data) {
                part.withUnsafeBytes { bytes in
                    guard let source = bytes.baseAddress else { return }
                    (buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
                }
                offset += part.count
            }
            append(id)
            append(head)
            append(tail)
            var mac = itemSetMAC
            mac.update(data: UnsafeRawBufferPointer(buffer))
            // A SHA-256 MAC is always 32 bytes.
            return ItemSetDigest(bytes: mac.finalize()) ?? .empty
        }
    }

    // MARK: - AES-GCM

    /// Bytes of an AES-GCM nonce, at the start of a combined box.
    static let nonceByteCount = 12
    /// Bytes of an AES-GCM tag, at the end of a combined box.
    static let tagByteCount = 16

    /// AES-GCM with a fresh random nonce; the result is nonce ‖ ciphertext ‖ tag.
    static func seal(_ plaintext: some DataProtocol, key: SymmetricKey, associatedData: Data) throws(VaultError) -> Data {
        let combined: Data?
        do {
            combined = try AES.GCM.seal(plaintext, using: key, nonce: freshNonce(), authenticating: associatedData).combined
        } catch {
            throw .storage("encryption failed: \(error)")
        }
        guard let combined else { throw .storage("AES-GCM produced no combined box") }
        return combined
    }

    /// A random nonce from the system's generator, drawn in one call: `AES.GCM.Nonce()` draws
    /// eight bytes at a time, two `getrandom` system calls per nonce on Linux.
    static func freshNonce() throws -> AES.GCM.Nonce {
        try withUnsafeTemporaryAllocation(byteCount: nonceByteCount, alignment: 8) { buffer in
            #if canImport(Darwin) || canImport(Glibc)
            // Darwin's is a user-space generator; glibc's (2.36 and later) is one getrandom.
            arc4random_buf(buffer.baseAddress!, buffer.count)
            #else
            var generator = SystemRandomNumberGenerator()
            for index in buffer.indices { buffer[index] = generator.next() }
            #endif
            return try AES.GCM.Nonce(data: UnsafeRawBufferPointer(buffer))
        }
    }

    /// The plaintext of a box made by ``seal(_:key:associatedData:)``, or `nil` when the box,
    /// the key or the associated data is not the one it was sealed with.
    static func open(_ sealed: Data, key: SymmetricKey, associatedData: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: associatedData)
    }

    // MARK: - Generation record

    /// Associated data of the generation record: it binds the digest of every key slot, so
    /// that splicing an earlier slot (an old passcode's) into the current file is detected.
    /// Its label says whether the vault keeps an item-set record: a record sealed without it
    /// is from a vault written before item-set binding.
    private func generationAAD(slotDigest: Data, bindsItems: Bool) -> Data {
        Data((bindsItems ? "tandem.vault.generation+items" : "tandem.vault.generation").utf8)
            + [Self.formatVersion] + storeID + slotDigest
    }

    /// The vault's generation counter, sealed so that editing the file cannot change it.
    /// `bindsItems: false` writes the earlier format, for tests of the migration.
    func sealGeneration(_ generation: UInt64, slotDigest: Data, bindsItems: Bool = true) throws(VaultError) -> Data {
        try Self.seal(
            generation.bigEndianBytes, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest, bindsItems: bindsItems))
    }

    /// Opens the generation record, and says whether the vault already binds its item set
    /// (`false` for a vault of the earlier format, not yet migrated). A modified record, or key
    /// slots that are not the ones it was sealed with, are ``VaultError/tampered(_:)``.
    func openGeneration(_ sealed: Data, slotDigest: Data) throws(VaultError) -> (generation: UInt64, bindsItems: Bool) {
        for bindsItems in [true, false] {
            if let plain = Self.open(sealed, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest, bindsItems: bindsItems)),
                let value = UInt64(bigEndianBytes: plain)
            {
                return (value, bindsItems)
            }
        }
        throw .tampered("the generation record")
    }

    // MARK: - Item-set record

    /// The item-set record, sealed so that its digest is neither readable nor editable.
    func sealItemSet(_ record: ItemSetRecord) throws(VaultError) -> Data {
        try Self.seal(record.serialized, key: itemKey, associatedData: itemSetAAD)
    }

    /// Opens the item-set record; a modified one is ``VaultError/tampered(_:)``.
    func openItemSet(_ sealed: Data) throws(VaultError) -> ItemSetRecord {
        guard let plain = Self.open(sealed, key: itemKey, associatedData: itemSetAAD),
            let record = ItemSetRecord(serialized: plain)
        else { throw .tampered("the item set") }
        return record
    }
}

extension UInt64 {
    var bigEndianBytes: Data { withUnsafeBytes(of: bigEndian) { Data($0) } }

    init?(bigEndianBytes data: Data) {
        guard data.count == 8 else { return nil }
        self = data.reduce(0) { ($0 << 8) | UInt64($1) }
    }
}
