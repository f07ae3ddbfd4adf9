import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// A random 256-bit key that seals data requests in the shared container, so that the
/// auxiliary share a request carries is never in a plain file.
///
/// It lives in the secret storage the host shares with its extensions — the same one that
/// holds the auxiliary share (a shared keychain group on Apple platforms, a `0600`
/// `FileSecretStorage` directory elsewhere) — never in the shared container itself. The host
/// provisions it once; both sides load it.
///
/// ```swift
/// // In the host, at every launch (does nothing once the key exists):
/// let sealingKey = try SharedSealingKey.provision(in: sharedSecrets)
/// // In the widget:
/// guard let sealingKey = try SharedSealingKey.load(from: sharedSecrets) else { return showOpenTheApp() }
/// ```
public struct SharedSealingKey: Sendable {
    /// The name of the key in `SecretStorage`.
    static let storageKey = "tandem.shared-sealing-key"
    static let length = 32

    let symmetricKey: SymmetricKey

    private init(bytes: Data) throws(SharedContainerError) {
        guard bytes.count == Self.length else { throw .secretStorage("the stored shared sealing key is damaged") }
        symmetricKey = SymmetricKey(data: bytes)
    }

    /// The key in `storage`, created there first if there is none (or only a damaged one).
    /// Idempotent: calling it at every launch returns the same key.
    ///
    /// Replacing a damaged key makes requests sealed under it unreadable; the host skips them
    /// (with a log line) and the next request of each extension replaces them.
    ///
    /// - Parameter storage: The secret storage shared with the extensions.
    /// - Throws: ``SharedContainerError/secretStorage(_:)`` when the storage fails.
    public static func provision(in storage: any SecretStorage) throws(SharedContainerError) -> SharedSealingKey {
        if var stored = try storedBytes(in: storage) {
            defer { stored.resetBytes(in: 0..<stored.count) }
            if stored.count == length { return try SharedSealingKey(bytes: stored) }
        }
        let key = SymmetricKey(size: .bits256)
        var bytes = key.withUnsafeBytes { Data($0) }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        do {
            try storage.set(bytes, forKey: storageKey)
        } catch {
            throw .secretStorage("cannot store the shared sealing key: \(error)")
        }
        return try SharedSealingKey(bytes: bytes)
    }

    /// The key the host provisioned in `storage`, or `nil` when it has not yet (the host app
    /// was never opened since the update: show "open the app").
    ///
    /// - Parameter storage: The secret storage shared with the host.
    /// - Throws: ``SharedContainerError/secretStorage(_:)`` when the storage fails (for example before
    ///   the device's first unlock) or the stored key is damaged.
    public static func load(from storage: any SecretStorage) throws(SharedContainerError) -> SharedSealingKey? {
        guard var bytes = try storedBytes(in: storage) else { return nil }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        return try SharedSealingKey(bytes: bytes)
    }

    private static func storedBytes(in storage: any SecretStorage) throws(SharedContainerError) -> Data? {
        do {
            return try storage.data(forKey: storageKey)
        } catch {
            throw .secretStorage("cannot read the shared sealing key: \(error)")
        }
    }
}

extension SharedSealingKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never shows the key.
    public var description: String { "SharedSealingKey(<redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
