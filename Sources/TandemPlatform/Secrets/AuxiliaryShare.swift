#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The extensions' half of the vault's paired access key (SPAK).
///
/// The SPAK is 32 random bytes that wrap the vault's data key; it is never stored whole.
/// It is split 2-of-2: the auxiliary share is 32 random bytes held by extensions, the primary
/// share is `SPAK ⊕ auxiliary` and stays in the host's private ``SecretStorage``. Either share
/// alone is uniform noise. An extension sends its share with every data request; the host
/// combines it with the primary share to open the vault without a passcode.
///
/// ```swift
/// // In the widget: read the share and attach it to a request.
/// let share = try AuxiliaryShare.load(from: sharedSecrets)
/// let wire = share?.serialized
/// // In the host: open the vault with the share from the request.
/// try vault.unlock(pairedKey: AuxiliaryShare(serialized: wire))
/// ```
public struct AuxiliaryShare: Sendable, Equatable, Codable {
    /// Which paired key this share belongs to (16 random bytes, not secret).
    public let keyID: Data
    /// The share itself (32 bytes, secret).
    public let bytes: Data

    package static let keyIDLength = 16
    package static let shareLength = 32
    private static let formatVersion: UInt8 = 1

    /// Wraps an identifier and share bytes; both must have their exact lengths.
    public init(keyID: Data, bytes: Data) throws(SecretStorageError) {
        guard keyID.count == Self.keyIDLength, bytes.count == Self.shareLength else {
            throw .malformedShare
        }
        self.keyID = keyID
        self.bytes = bytes
    }

    private enum CodingKeys: String, CodingKey { case keyID, bytes }

    /// Decodes through the length-checking initializer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(keyID: try container.decode(Data.self, forKey: .keyID), bytes: try container.decode(Data.self, forKey: .bytes))
    }

    /// A compact binary form (49 bytes) for request records and storage.
    public var serialized: Data {
        var data = Data([Self.formatVersion])
        data.append(keyID)
        data.append(bytes)
        return data
    }

    /// Parses ``serialized``; anything malformed is a ``SecretStorageError/malformedShare``.
    public init(serialized data: Data) throws(SecretStorageError) {
        let bytes = [UInt8](data)
        guard bytes.count == 1 + Self.keyIDLength + Self.shareLength, bytes[0] == Self.formatVersion else {
            throw .malformedShare
        }
        try self.init(
            keyID: Data(bytes[1...Self.keyIDLength]),
            bytes: Data(bytes[(1 + Self.keyIDLength)...]))
    }

    /// The share the host put into the extensions' storage for the vault named `vaultName`,
    /// or `nil` when extension access is not enabled.
    public static func load(from storage: any SecretStorage, vaultName: String = "vault") throws(SecretStorageError) -> AuxiliaryShare? {
        guard let data = try storage.data(forKey: storageKey(vaultName: vaultName)) else { return nil }
        return try AuxiliaryShare(serialized: data)
    }

    /// Removes the share from the extensions' storage, for example after the vault's `destroy()`
    /// or a wipe (which cannot reach that storage). Removing a missing share is not an error.
    public static func remove(from storage: any SecretStorage, vaultName: String = "vault") throws(SecretStorageError) {
        try storage.removeData(forKey: storageKey(vaultName: vaultName))
    }

    /// The name under which the share for the vault named `vaultName` is kept in a ``SecretStorage``.
    public static func storageKey(vaultName: String) -> String { "\(vaultName).auxiliary-share" }

    /// Keeps the share out of logs and debugger output.
    public var debugDescription: String { "AuxiliaryShare(keyID: \(keyID.hexString), bytes: <redacted>)" }
}

extension AuxiliaryShare: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { debugDescription }
}

extension Data {
    package var hexString: String { Hex.encode(self) }
}
