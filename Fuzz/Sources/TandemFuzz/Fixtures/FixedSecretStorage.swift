import Foundation
import TandemPlatform

/// Secret storage holding fixed values in memory: the fuzz targets' keys are the same in every
/// run, so a seed sealed by `--write-seeds` opens when it is replayed or fuzzed.
struct FixedSecretStorage: SecretStorage {
    let values: [String: Data]

    func data(forKey key: String) throws(SecretStorageError) -> Data? { values[key] }

    func set(_ data: Data, forKey key: String) throws(SecretStorageError) {
        throw .failed("the fuzz targets' secrets are fixed")
    }

    func removeData(forKey key: String) throws(SecretStorageError) {
        throw .failed("the fuzz targets' secrets are fixed")
    }
}
