import Crypto
import Foundation

/// One wrapped copy of the data key, as stored in the `vault_keyslot` table.
///
/// A vault has one slot per way in: the passcode (or the device secret alone, without a
/// passcode), while extension access is enabled the paired access key, and while biometric
/// unlock is enabled the biometric secret. Changing the
/// passcode or rotating the paired key replaces a slot; the data key and the items stay as
/// they are. Each slot carries a checksum over its stored bytes so that a damaged slot is
/// reported as such instead of as a wrong passcode.
struct KeySlot: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// Wrapped under HKDF(scrypt(passcode) ‖ device secret).
        case passcode
        /// Wrapped under the device secret alone (a vault created without passcode).
        case device
        /// Wrapped under the paired access key (auxiliary share ⊕ primary share).
        case paired
        /// Wrapped under HKDF(biometric secret ‖ device secret); the biometric secret is
        /// released by Face ID or Touch ID (``BiometricSecretStore``).
        case biometric
    }

    /// `passcode`, `device`, `paired.<key id>`, or `biometric`.
    let id: String
    let kind: Kind
    /// Non-secret inputs to the key derivation (the passcode slot's salt and scrypt cost).
    let parameters: Data
    /// AES-GCM box of the data key under the slot's key-encryption key.
    let wrapped: Data
    let checksum: Data

    static func pairedID(keyID: Data) -> String { "paired.\(keyID.hexString)" }

    /// Wraps `dataKey` under `kek` into a new slot.
    static func wrap(
        _ dataKey: DataKey, id: String, kind: Kind, parameters: Data, kek: SymmetricKey
    ) throws(VaultError) -> KeySlot {
        let aad = associatedData(storeID: dataKey.storeID, id: id, kind: kind, parameters: parameters)
        var raw = dataKey.key.withUnsafeBytes { Data($0) }
        defer { raw.resetBytes(in: 0..<raw.count) }
        let wrapped = try DataKey.seal(raw, key: kek, associatedData: aad)
        return KeySlot(
            id: id, kind: kind, parameters: parameters, wrapped: wrapped,
            checksum: checksum(id: id, kind: kind, parameters: parameters, wrapped: wrapped))
    }

    /// Rebuilds a slot read from the database; a checksum mismatch means the stored bytes
    /// were changed.
    static func stored(id: String, kind: String, parameters: Data, wrapped: Data, checksum: Data) throws(VaultError) -> KeySlot {
        guard let kind = Kind(rawValue: kind),
            checksum == Self.checksum(id: id, kind: kind, parameters: parameters, wrapped: wrapped)
        else { throw .tampered("key slot \(id)") }
        return KeySlot(id: id, kind: kind, parameters: parameters, wrapped: wrapped, checksum: checksum)
    }

    /// The data key, or `nil` when `kek` is not this slot's key.
    func unwrap(with kek: SymmetricKey, storeID: Data) -> DataKey? {
        let aad = Self.associatedData(storeID: storeID, id: id, kind: kind, parameters: parameters)
        guard var raw = DataKey.open(wrapped, key: kek, associatedData: aad) else { return nil }
        defer { raw.resetBytes(in: 0..<raw.count) }
        guard raw.count == 32 else { return nil }
        return DataKey(key: SymmetricKey(data: raw), storeID: storeID)
    }

    /// A digest of a set of slots (order-independent), sealed into the generation record.
    static func digest(of slots: [KeySlot]) -> Data {
        var hasher = SHA256()
        for slot in slots.sorted(by: { $0.id < $1.id }) {
            hasher.update(data: lengthPrefixed(slot.checksum))
        }
        return Data(hasher.finalize())
    }

    private static func associatedData(storeID: Data, id: String, kind: Kind, parameters: Data) -> Data {
        var aad = Data("tandem.vault.keyslot".utf8)
        aad.append(DataKey.formatVersion)
        aad.append(storeID)
        aad.append(contentsOf: lengthPrefixed(Data(id.utf8)))
        aad.append(contentsOf: lengthPrefixed(Data(kind.rawValue.utf8)))
        aad.append(contentsOf: lengthPrefixed(parameters))
        return aad
    }

    private static func checksum(id: String, kind: Kind, parameters: Data, wrapped: Data) -> Data {
        var hasher = SHA256()
        for part in [Data(id.utf8), Data(kind.rawValue.utf8), parameters, wrapped] {
            hasher.update(data: lengthPrefixed(part))
        }
        return Data(hasher.finalize())
    }

    private static func lengthPrefixed(_ data: Data) -> Data {
        UInt64(data.count).bigEndianBytes + data
    }
}

/// How each kind of slot turns its secret into a key-encryption key (KEK).
enum KeyEncryptionKey {
    /// HKDF(scrypt(passcode, salt) ‖ device secret): slow on purpose, and useless off the device.
    static func passcode(
        _ passcode: String, parameters: PasscodeSlotParameters, deviceSecret: Data, storeID: Data
    ) throws(VaultError) -> SymmetricKey {
        let stretched = try parameters.scrypt.derive(passcode: passcode, salt: parameters.salt)
        var material = stretched.withUnsafeBytes { Data($0) }
        material.append(deviceSecret)
        defer { material.resetBytes(in: 0..<material.count) }
        return derive(SymmetricKey(data: material), storeID: storeID, purpose: "passcode")
    }

    /// HKDF(device secret), for a vault created without passcode.
    static func device(deviceSecret: Data, storeID: Data) -> SymmetricKey {
        derive(SymmetricKey(data: deviceSecret), storeID: storeID, purpose: "device")
    }

    /// HKDF(biometric secret ‖ device secret). The secret is uniform, so there is no stretching;
    /// the device secret ties the slot to this vault's creation on this device, as the passcode
    /// slot's is, so a biometric secret left from an earlier vault opens nothing.
    static func biometric(secret: Data, deviceSecret: Data, storeID: Data) -> SymmetricKey {
        var material = secret
        material.append(deviceSecret)
        defer { material.resetBytes(in: 0..<material.count) }
        return derive(SymmetricKey(data: material), storeID: storeID, purpose: "biometric")
    }

    /// HKDF(SPAK): the paired key is already uniform, so this only separates domains.
    static func paired(spak: SymmetricKey, storeID: Data) -> SymmetricKey {
        derive(spak, storeID: storeID, purpose: "paired")
    }

    private static func derive(_ material: SymmetricKey, storeID: Data, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: storeID, info: Data("tandem.vault.kek.\(purpose)".utf8),
            outputByteCount: 32)
    }
}

/// The passcode slot's stored, non-secret parameters.
struct PasscodeSlotParameters: Codable, Sendable, Equatable {
    var salt: Data
    var scrypt: ScryptParameters

    static func fresh(cost: KeyDerivationCost) throws(VaultError) -> PasscodeSlotParameters {
        PasscodeSlotParameters(salt: Data.random(count: 16), scrypt: try cost.resolve())
    }

    var encoded: Data {
        get throws(VaultError) {
            do { return try JSONEncoder.sorted.encode(self) } catch { throw .coding("\(error)") }
        }
    }

    init(salt: Data, scrypt: ScryptParameters) {
        self.salt = salt
        self.scrypt = scrypt
    }

    init(encoded: Data) throws(VaultError) {
        do {
            self = try JSONDecoder().decode(PasscodeSlotParameters.self, from: encoded)
        } catch {
            throw .tampered("the passcode key slot parameters")
        }
    }
}

extension JSONEncoder {
    /// Deterministic output, so stored bytes (and checksums over them) are stable.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension Data {
    /// `count` bytes from the system's cryptographically secure generator.
    static func random(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
