#if canImport(Security)
import Foundation
import Security

/// A ``SecretStorage`` in the Apple keychain: generic-password items, one per key, readable
/// after the first unlock following a boot and never migrated to another device
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), so a background refresh or a widget
/// can read them while the phone is locked.
///
/// Queries never include the accessibility attribute, so an item stored by an earlier version
/// with another accessibility is still found (and is updated in place).
///
/// The access group is always explicit: without one, the keychain uses the first group of the
/// app's `keychain-access-groups` entitlement, which after enabling Keychain Sharing is often
/// the group shared with extensions — and the host's primary share must never land there.
///
/// ```swift
/// // The host's private store: the app's own group (team id + bundle id).
/// let host = KeychainSecretStorage(service: "com.example.app.vault",
///                                  accessGroup: "TEAMID.com.example.app")
/// // The store shared with extensions: a group both targets list in their entitlements.
/// let shared = KeychainSecretStorage(service: "com.example.app.extensions",
///                                    accessGroup: "TEAMID.com.example.shared")
/// ```
public struct KeychainSecretStorage: SecretStorage {
    /// The `kSecAttrService` that namespaces this storage's items.
    public let service: String
    /// The keychain access group every item of this storage is stored in and looked up from.
    public let accessGroup: String

    /// Creates a storage over the keychain items of `service`.
    ///
    /// - Parameters:
    ///   - service: A name unique to this storage, such as the bundle identifier plus a suffix.
    ///   - accessGroup: For the host's private storage, the app's own group
    ///     (`TEAMID.<bundle id>`); for the extensions' storage, a group both the app and its
    ///     extensions list in their entitlements.
    public init(service: String, accessGroup: String) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func data(forKey key: String) throws(SecretStorageError) -> Data? {
        var query = baseQuery(forKey: key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else { throw .failed("keychain item \(key) holds no data") }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw Self.failure("read", key, status)
        }
    }

    public func set(_ data: Data, forKey key: String) throws(SecretStorageError) {
        let query = baseQuery(forKey: key)
        let update: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        switch status {
        case errSecSuccess:
            return
        case errSecItemNotFound:
            var add = query
            add.merge(update) { _, new in new }
            let added = SecItemAdd(add as CFDictionary, nil)
            guard added == errSecSuccess else { throw Self.failure("add", key, added) }
        default:
            throw Self.failure("update", key, status)
        }
    }

    public func removeData(forKey key: String) throws(SecretStorageError) {
        let status = SecItemDelete(baseQuery(forKey: key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure("delete", key, status)
        }
    }

    private func baseQuery(forKey key: String) -> [String: Any] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
            kSecUseDataProtectionKeychain as String: true,
            kSecAttrAccessGroup as String: accessGroup,
        ]
        return query
    }

    private static func failure(_ action: String, _ key: String, _ status: OSStatus) -> SecretStorageError {
        // errSecInteractionNotAllowed (-25308): the device is locked and has not been unlocked
        // since boot. A state, not a failure: callers show "unavailable", never "signed out".
        if status == errSecInteractionNotAllowed { return .deviceLocked }
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
        return .failed("keychain \(action) of \(key) failed: \(message)")
    }
}
#endif
