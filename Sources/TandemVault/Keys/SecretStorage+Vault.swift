import Foundation
import TandemPlatform

/// The vault's reads and writes of its `SecretStorage`, reporting failures as ``VaultError``.
extension SecretStorage {
    /// `SecretStorage/data(forKey:)`.
    func read(_ key: String) throws(VaultError) -> Data? {
        do { return try data(forKey: key) } catch { throw VaultError(error) }
    }

    /// `SecretStorage/set(_:forKey:)`.
    func write(_ data: Data, to key: String) throws(VaultError) {
        do { try set(data, forKey: key) } catch { throw VaultError(error) }
    }

    /// `SecretStorage/removeData(forKey:)`.
    func remove(_ key: String) throws(VaultError) {
        do { try removeData(forKey: key) } catch { throw VaultError(error) }
    }
}

extension VaultError {
    /// The vault's case for a failure of its secret storage or of an auxiliary share.
    public init(_ error: SecretStorageError) {
        switch error {
        case .failed(let reason): self = .secretStorage(reason)
        case .deviceLocked: self = .deviceLocked
        case .malformedShare: self = .wrongPairedKey
        }
    }
}
