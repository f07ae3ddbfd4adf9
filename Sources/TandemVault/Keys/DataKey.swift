import Crypto
import Foundation

/// The unlocked vault's key material: the random data key (DEK) and the keys derived from it.
///
/// Items are sealed with AES-GCM under a key derived from the DEK, with a fresh random nonce
/// per write and associated data binding the format version, the vault's store id and the
/// item's id, so a sealed value copied onto another item or into another vault fails to open.
/// Item names are stored only as (truncated) HMAC-SHA256 under a second derived key.
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
    private let itemAADPrefix: Data

    static let formatVersion: UInt8 = 1

    init(key: SymmetricKey, storeID: Data) {
        self.key = key
        self.storeID = storeID
        itemKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: storeID, info: Data("tandem.vault.item-encryption".utf8), outputByteCount: 32)
        let indexKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: storeID, info: Data("tandem.vault.item-index".utf8), outputByteCount: 32)
        indexMAC = HMAC<SHA256>(key: indexKey)
        var prefix = Data("tandem.vault.item".utf8)
        prefix.append(Self.formatVersion)
        prefix.append(storeID)
        itemAADPrefix = prefix
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

    // MARK: - AES-GCM

    /// AES-GCM with a fresh random nonce; the result is nonce ‖ ciphertext ‖ tag.
    static func seal(_ plaintext: some DataProtocol, key: SymmetricKey, associatedData: Data) throws(VaultError) -> Data {
        let combined: Data?
        do {
            combined = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData).combined
        } catch {
            throw .storage("encryption failed: \(error)")
        }
        guard let combined else { throw .storage("AES-GCM produced no combined box") }
        return combined
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
    private func generationAAD(slotDigest: Data) -> Data {
        Data("tandem.vault.generation".utf8) + [Self.formatVersion] + storeID + slotDigest
    }

    /// The vault's generation counter, sealed so that editing the file cannot change it.
    func sealGeneration(_ generation: UInt64, slotDigest: Data) throws(VaultError) -> Data {
        try Self.seal(generation.bigEndianBytes, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest))
    }

    /// Opens the generation record; a modified record, or key slots that are not the ones it
    /// was sealed with, are ``VaultError/tampered(_:)``.
    func openGeneration(_ sealed: Data, slotDigest: Data) throws(VaultError) -> UInt64 {
        guard let plain = Self.open(sealed, key: itemKey, associatedData: generationAAD(slotDigest: slotDigest)),
            let value = UInt64(bigEndianBytes: plain)
        else { throw .tampered("the generation record") }
        return value
    }
}

extension UInt64 {
    var bigEndianBytes: Data { withUnsafeBytes(of: bigEndian) { Data($0) } }

    init?(bigEndianBytes data: Data) {
        guard data.count == 8 else { return nil }
        self = data.reduce(0) { ($0 << 8) | UInt64($1) }
    }
}
