#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Small secrets kept outside the vault file: the device secret, the paired key's shares,
/// the failed-attempt counter and the rollback generation.
///
/// The host gives its vault its own private storage; extensions get a second one, shared
/// with the host, that holds only the auxiliary share. On Apple platforms use
/// ``KeychainSecretStorage``; elsewhere ``FileSecretStorage``.
///
/// Keys are short ASCII names (`[A-Za-z0-9._-]`). Implementations must make each `set` atomic:
/// a reader sees the old value or the new one, never a mix.
public protocol SecretStorage: Sendable {
    /// The value stored under `key`, or `nil` when there is none.
    func data(forKey key: String) throws(SecretStorageError) -> Data?
    /// Stores `data` under `key`, replacing any previous value, durably.
    func set(_ data: Data, forKey key: String) throws(SecretStorageError)
    /// Removes the value under `key`; removing a missing key is not an error.
    func removeData(forKey key: String) throws(SecretStorageError)
}
