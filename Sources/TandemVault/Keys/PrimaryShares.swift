import Foundation
import TandemPlatform

/// The host's primary shares, by paired-key id, stored as one record in the host's
/// `SecretStorage` so that adding the next share and dropping the old one are each a single
/// atomic write.
struct PrimaryShares: Sendable, Equatable {
    private(set) var shares: [Data: Data] = [:]

    private static let formatVersion: UInt8 = 1
    private static let entryLength = AuxiliaryShare.keyIDLength + AuxiliaryShare.shareLength

    init() {}

    init(serialized data: Data) throws(VaultError) {
        let bytes = [UInt8](data)
        guard let version = bytes.first, version == Self.formatVersion,
            (bytes.count - 1) % Self.entryLength == 0
        else { throw .secretStorage("the primary shares record is damaged") }
        var offset = 1
        while offset < bytes.count {
            let keyID = Data(bytes[offset..<(offset + AuxiliaryShare.keyIDLength)])
            let share = Data(bytes[(offset + AuxiliaryShare.keyIDLength)..<(offset + Self.entryLength)])
            shares[keyID] = share
            offset += Self.entryLength
        }
    }

    var serialized: Data {
        var data = Data([Self.formatVersion])
        for keyID in shares.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            data.append(keyID)
            data.append(shares[keyID] ?? Data())
        }
        return data
    }

    subscript(keyID: Data) -> Data? {
        get { shares[keyID] }
        set { shares[keyID] = newValue }
    }

    /// Keeps only the shares whose key id is in `keyIDs`.
    func keeping(_ keyIDs: Set<Data>) -> PrimaryShares {
        var kept = PrimaryShares()
        kept.shares = shares.filter { keyIDs.contains($0.key) }
        return kept
    }

    static func load(from storage: any SecretStorage, key: String) throws(VaultError) -> PrimaryShares {
        guard let data = try storage.read(key) else { return PrimaryShares() }
        return try PrimaryShares(serialized: data)
    }
}
