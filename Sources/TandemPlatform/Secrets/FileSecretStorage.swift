#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``SecretStorage`` of one file per key in a directory only the current user can read
/// (directory `0700`, files `0600`), each written atomically: temporary file, `fsync`, `rename`.
///
/// This is the portable default for Linux and for tests. On Apple platforms prefer
/// ``KeychainSecretStorage``: files in an app container are readable by anything that can read
/// the container, and they are included in unencrypted backups.
///
/// ```swift
/// let secrets = try FileSecretStorage(directory: appSupport.appending(path: "secrets"))
/// ```
public struct FileSecretStorage: SecretStorage {
    /// The directory that holds one file per key.
    public let directory: URL

    /// Opens (and creates, with `0700` permissions, if needed) a secrets directory.
    ///
    /// - Parameter directory: A directory private to this process's user.
    public init(directory: URL) throws(SecretStorageError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed("cannot create \(directory.path): \(error)")
        }
    }

    public func data(forKey key: String) throws(SecretStorageError) -> Data? {
        let url = try fileURL(forKey: key)
        do {
            return try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw .failed("cannot read secret \(key): \(error)")
        }
    }

    public func set(_ data: Data, forKey key: String) throws(SecretStorageError) {
        let url = try fileURL(forKey: key)
        do {
            try AtomicFile.replace(url, with: data, permissions: 0o600)
        } catch {
            throw .failed(error.description)
        }
    }

    public func removeData(forKey key: String) throws(SecretStorageError) {
        let url = try fileURL(forKey: key)
        do {
            try FileSystem.removeIfPresent(atPath: url.path)
        } catch {
            throw .failed("cannot remove secret \(key): \(error)")
        }
        AtomicFile.syncDirectory(directory)
    }

    private func fileURL(forKey key: String) throws(SecretStorageError) -> URL {
        let allowed = key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard allowed, !key.isEmpty, !key.hasPrefix(".") else {
            throw .failed("invalid secret key name \(key.debugDescription)")
        }
        return directory.appendingPathComponent(key, isDirectory: false)
    }
}
