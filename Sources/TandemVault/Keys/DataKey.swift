import Crypto
import Foundation

/// The unlocked vault's key material: the random data key (DEK) and the keys derived from it.
///
/// Items are sealed with AES-GCM under a key derived from the DEK, with a fresh random nonce
/// per write and associated data binding the format version, the vault's store id and the
/// item's id, so a sealed value copied onto another item or into another vault fails to open.
/// Each box also carries, after the value, the item-set record of the write that stored it
/// (``ItemSetRecord``): one seal per write binds both.
/// Item names are stored only as (truncated) HMAC-SHA256 under a second derived key; a third
/// keys the tags of the item-set digest (``ItemSetDigest``).
/// `SymmetricKey` keeps its bytes in memory that is zeroed when released, which is what
/// ``Vault/lock()`` relies on to wipe the keys.
final class DataKey: Sendable {
    /// The wrapped secret; only key slots see it.
    let key: SymmetricKey
    let storeID: Data
    private let itemKey: SymmetricKey
    /// HMAC keyed once per unlock; each item id copies its state instead of keying anew
    /// (keying costs about as much as the rest of the MAC).
    private let indexMAC: HMAC<SHA256>
    private let itemSetMAC: HMAC<SHA256>
    /// Associated data of a box holding its value and its write's item-set record.
    private let itemAADPrefix: Data
    /// Associated data of a box of the format before item-set binding (the value alone).
    private let unboundItemAADPrefix: Data
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
        itemAADPrefix = Data("tandem.vault.item+set".utf8) + [Self.formatVersion] + storeID
        unboundItemAADPrefix = Data("tandem.vault.item".utf8) + [Self.formatVersion] + storeID
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

    /// Seals `value` for the item with `itemID`, together with `record`, the item-set record of
    /// the write that stores it: nonce ‖ AES-GCM(value ‖ record) ‖ tag. The nonce is drawn by the
    /// caller, because the item's tag in that record is computed from it (``itemTag(id:nonce:)``).
    func seal(_ value: Data, itemID: Data, nonce: AES.GCM.Nonce, record: ItemSetRecord) throws(VaultError) -> Data {
        // value ‖ record laid out in one buffer (on the stack when it is small), without an
        // intermediate copy of either.
        let messageCount = value.count + ItemSetRecord.serializedByteCount
        let sealed: Result<Data, VaultError> = withUnsafeTemporaryAllocation(byteCount: messageCount, alignment: 8) { buffer in
            Self.copy(value, into: buffer, at: 0)
            record.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[value.count...]))
            // The plaintext does not outlive the seal in this buffer.
            defer { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
            return Self.withAssociatedData(itemAADPrefix, itemID) { associatedData in
                do throws(VaultError) {
                    return .success(
                        try Self.seal(UnsafeRawBufferPointer(buffer), key: itemKey, nonce: nonce, associatedData: associatedData))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch sealed {
        case .success(let box): return box
        case .failure(let error): throw error
        }
    }

    /// Seals `value` as the format before item-set binding did (the value alone, under that
    /// format's associated data), for tests of the migration.
    func sealUnbound(_ value: Data, itemID: Data) throws(VaultError) -> Data {
        try Self.seal(value, key: itemKey, associatedData: unboundItemAADPrefix + itemID)
    }

    /// Opens an item's box and returns its value. A box of the format before item-set binding
    /// (not rewritten since its vault was migrated) opens under that format's associated data.
    /// Any modification of `sealed` (or a box moved from another item) is
    /// ``VaultError/tampered(_:)``.
    func open(_ sealed: Data, itemID: Data, name: String) throws(VaultError) -> Data {
        if let message = openBound(sealed, itemID: itemID) {
            return message.prefix(message.count - ItemSetRecord.serializedByteCount)
        }
        guard let value = Self.open(sealed, key: itemKey, associatedData: unboundItemAADPrefix + itemID) else {
            throw .tampered("item \(name.debugDescription)")
        }
        return value
    }

    /// The item-set record sealed in an item's box; a box that does not open, or holds none, is
    /// ``VaultError/tampered(_:)`` of the item set.
    func openRecord(_ sealed: Data, itemID: Data) throws(VaultError) -> ItemSetRecord {
        guard let message = openBound(sealed, itemID: itemID),
            let record = ItemSetRecord(serialized: message.suffix(ItemSetRecord.serializedByteCount))
        else { throw .tampered("the item set") }
        return record
    }

    /// value ‖ record from a box sealed by ``seal(_:itemID:nonce:record:)``, or `nil` when it
    /// does not open as one (a box of the format before binding, or a modified one).
    private func openBound(_ sealed: Data, itemID: Data) -> Data? {
        guard let message = Self.withAssociatedData(itemAADPrefix, itemID, { Self.open(sealed, key: itemKey, associatedData: $0) }),
            message.count >= ItemSetRecord.serializedByteCount
        else { return nil }
        return message
    }

    /// The item's contribution to the ``ItemSetDigest``: HMAC(item-set key, len(id) ‖ id ‖
    /// nonce) of its sealed box.
    ///
    /// The nonce stands for the whole box: every box is sealed with a fresh random nonce, and no
    /// other box under that nonce opens (the GCM tag authenticates the ciphertext under the item
    /// key, with the id bound as associated data). It is known before the box is sealed, which
    /// lets the box carry the record whose digest includes its own tag. A box whose ciphertext
    /// alone was edited fails when the item is opened.
    func itemTag(id: Data, nonce: AES.GCM.Nonce) -> ItemSetDigest {
        nonce.withUnsafeBytes { itemTag(id: id, nonce: $0) }
    }

    /// The same tag from a stored box (its first 12 bytes are the nonce), or from the nonce
    /// alone as the database returns it (``VaultDatabase/Writer/boxNonce(id:)``). A box shorter
    /// than a nonce contributes what it has; it opens nowhere.
    func itemTag(id: Data, sealed: Data) -> ItemSetDigest {
        sealed.prefix(Self.nonceByteCount).withUnsafeBytes { itemTag(id: id, nonce: $0) }
    }

    /// HMAC(item-set key, len(id) ‖ id ‖ nonce), its message laid out in one buffer so that the
    /// MAC takes it in one update.
    private func itemTag(id: Data, nonce: UnsafeRawBufferPointer) -> ItemSetDigest {
        let length = 8 + id.count + nonce.count
        return withUnsafeTemporaryAllocation(byteCount: length, alignment: 8) { buffer in
            buffer.storeBytes(of: UInt64(id.count).bigEndian, as: UInt64.self)
            Self.copy(id, into: buffer, at: 8)
            if let source = nonce.baseAddress {
                (buffer.baseAddress! + 8 + id.count).copyMemory(from: source, byteCount: nonce.count)
            }
            var mac = itemSetMAC
            mac.update(data: UnsafeRawBufferPointer(buffer))
            // A SHA-256 MAC is always 32 bytes.
            return ItemSetDigest(bytes: mac.finalize()) ?? .empty
        }
    }

    // MARK: - AES-GCM

    /// Bytes of an AES-GCM nonce, at the start of a combined box.
    static let nonceByteCount = 12

    /// AES-GCM with a fresh random nonce; the result is nonce ‖ ciphertext ‖ tag.
    static func seal(_ plaintext: some DataProtocol, key: SymmetricKey, associatedData: some DataProtocol) throws(VaultError) -> Data {
        let nonce: AES.GCM.Nonce
        do {
            nonce = try freshNonce()
        } catch {
            throw .storage("no nonce: \(error)")
        }
        return try seal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
    }

    /// AES-GCM under `nonce`, which must be fresh (``freshNonce()``); the result is
    /// nonce ‖ ciphertext ‖ tag.
    static func seal(
        _ plaintext: some DataProtocol, key: SymmetricKey, nonce: AES.GCM.Nonce, associatedData: some DataProtocol
    ) throws(VaultError) -> Data {
        let combined: Data?
        do {
            combined = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: associatedData).combined
        } catch {
            throw .storage("encryption failed: \(error)")
        }
        guard let combined else { throw .storage("AES-GCM produced no combined box") }
        return combined
    }

    /// A fresh random nonce (``NonceSource``).
    static func freshNonce() throws -> AES.GCM.Nonce {
        try NonceSource.shared.next()
    }

    /// The plaintext of a box made by ``seal(_:key:associatedData:)``, or `nil` when the box,
    /// the key or the associated data is not the one it was sealed with.
    static func open(_ sealed: Data, key: SymmetricKey, associatedData: some DataProtocol) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: associatedData)
    }

    /// Calls `body` with `prefix ‖ itemID`, laid out on the stack: an item's associated data,
    /// built for every seal and open without a heap allocation.
    private static func withAssociatedData<Result>(_ prefix: Data, _ itemID: Data, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: prefix.count + itemID.count, alignment: 1) { buffer in
            copy(prefix, into: buffer, at: 0)
            copy(itemID, into: buffer, at: prefix.count)
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Copies `data` into `buffer` from `offset` on (which has room for it): `Data.withUnsafeBytes`
    /// and a memcpy, where `DataProtocol.copyBytes(to:)` goes through the generic collection path
    /// and costs more than the MAC or the seal it feeds.
    private static func copy(_ data: Data, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        data.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            (buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
        }
    }

    // MARK: - Generation record

    /// Associated data of the generation record: it binds the digest of every key slot, so
    /// that splicing an earlier slot (an old passcode's) into the current file is detected.
    /// Its label says whether the vault keeps an item-set record: a record sealed without it
    /// is from a vault written before item-set binding.
    private func generationAAD(slotDigest: Data, format: ItemSetFormat) -> Data {
        Data(format.generationLabel.utf8) + [Self.formatVersion] + storeID + slotDigest
    }

    /// How a vault binds its item set, as its generation record's label says.
    enum ItemSetFormat: CaseIterable {
        /// Each box carries its write's record (``DataKey/seal(_:itemID:nonce:record:)``).
        case recordInBox
        /// Item-set records sealed apart from the boxes, tags over nonce and GCM tag: the
        /// unreleased first form of binding, migrated like ``unbound``.
        case separateRecords
        /// The format before item-set binding.
        case unbound

        var generationLabel: String {
            switch self {
            case .recordInBox: "tandem.vault.generation+item-boxes"
            case .separateRecords: "tandem.vault.generation+items"
            case .unbound: "tandem.vault.generation"
            }
        }
    }

    /// The vault's generation counter, sealed so that editing the file cannot change it.
    /// Another `format` writes an earlier one, for tests of the migration.
    func sealGeneration(_ generation: UInt64, slotDigest: Data, format: ItemSetFormat = .recordInBox) throws(VaultError) -> Data {
        try Self.seal(generation.bigEndianBytes, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest, format: format))
    }

    /// Opens the generation record, and says whether the vault binds its item set in the
    /// current format (`false` for a vault of an earlier one, not yet migrated). A modified
    /// record, or key slots that are not the ones it was sealed with, are
    /// ``VaultError/tampered(_:)``.
    func openGeneration(_ sealed: Data, slotDigest: Data) throws(VaultError) -> (generation: UInt64, bindsItems: Bool) {
        for format in ItemSetFormat.allCases {
            if let plain = Self.open(sealed, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest, format: format)),
                let value = UInt64(bigEndianBytes: plain)
            {
                return (value, format == .recordInBox)
            }
        }
        throw .tampered("the generation record")
    }

    // MARK: - Item-set record

    /// The item-set record on its own (in `vault_meta`, after a removal or a raised generation),
    /// sealed so that its digest is neither readable nor editable.
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
