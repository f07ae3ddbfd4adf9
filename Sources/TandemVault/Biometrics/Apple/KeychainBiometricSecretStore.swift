#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication
import Security

/// A ``BiometricSecretStore`` in the Apple keychain: one generic-password item per key, whose
/// access control (`SecAccessControl` with `.biometryCurrentSet`) releases it only after Face ID
/// or Touch ID by the enrolment current when it was stored, and only on this device while a
/// device passcode is set (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`). Enrolling
/// another face or finger, or removing one, invalidates the item for good; removing the device
/// passcode deletes it.
///
/// A read first asks `LAContext.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics,…)`,
/// then reads the item with that authenticated context (`kSecUseAuthenticationContext`), so the
/// user sees one prompt and the keychain call never blocks on the user.
///
/// The app's Info.plist needs `NSFaceIDUsageDescription`. Like ``KeychainSecretStorage``, the
/// access group is always explicit: use the app's own group, never the one shared with extensions.
///
/// ```swift
/// let biometrics = KeychainBiometricSecretStore(service: "com.example.app.vault.biometric",
///                                               accessGroup: "TEAMID.com.example.app")
/// let vault = Vault(directory: privateDirectory, secrets: hostSecrets, biometrics: biometrics)
/// ```
public struct KeychainBiometricSecretStore: BiometricSecretStore {
    /// The `kSecAttrService` that namespaces this store's items.
    public let service: String
    /// The keychain access group every item is stored in and looked up from.
    public let accessGroup: String

    /// Creates a store over the keychain items of `service` in `accessGroup` (the app's own
    /// group, `TEAMID.<bundle id>`).
    public init(service: String, accessGroup: String) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func set(_ secret: Data, forKey key: String) throws(BiometricSecretStoreError) {
        // Without enrolled biometry the item could be stored but never read.
        var availability: NSError?
        guard LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &availability) else {
            throw Self.failure(availability)
        }
        var accessError: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &accessError)
        else {
            let reason = accessError.map { "\($0.takeRetainedValue())" } ?? "unknown"
            throw .failed("cannot create the keychain access control: \(reason)")
        }
        // An item's access control cannot be updated in place: replace the item.
        try removeSecret(forKey: key)
        var add = baseQuery(forKey: key)
        add[kSecValueData as String] = secret
        add[kSecAttrAccessControl as String] = access
        let status = SecItemAdd(add as CFDictionary, nil)
        switch status {
        case errSecSuccess: return
        // No device passcode: items accessible "when passcode set" cannot be added.
        case errSecNotAvailable, errSecAuthFailed: throw .unavailable
        default: throw Self.failure("add", key, status)
        }
    }

    public func secret(forKey key: String, reason: String) async throws(BiometricSecretStoreError) -> Data {
        let context = LAContext()
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
        } catch {
            throw Self.failure(error as NSError)
        }
        // The context is authenticated now; the keychain must not ask a second time.
        context.interactionNotAllowed = true
        var query = baseQuery(forKey: key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseAuthenticationContext as String] = context
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else { throw .failed("keychain item \(key) holds no data") }
            return data
        // Gone, or bound to an enrolment that is no longer the current one: the authenticated
        // context does not satisfy its access control. (errSecInteractionNotAllowed is a locked
        // device, not a lost item: it stays a failure, so the slot is kept.)
        case errSecItemNotFound, errSecAuthFailed:
            throw .biometryChanged
        case errSecUserCanceled:
            throw .cancelled
        default:
            throw Self.failure("read", key, status)
        }
    }

    public func removeSecret(forKey key: String) throws(BiometricSecretStoreError) {
        let status = SecItemDelete(baseQuery(forKey: key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure("delete", key, status)
        }
    }

    private func baseQuery(forKey key: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
            kSecUseDataProtectionKeychain as String: true,
            kSecAttrAccessGroup as String: accessGroup,
        ]
    }

    /// The store's case for a LocalAuthentication error.
    private static func failure(_ error: NSError?) -> BiometricSecretStoreError {
        guard let error, error.domain == LAErrorDomain, let code = LAError.Code(rawValue: error.code) else {
            return .failed(error.map { "\($0.domain) \($0.code)" } ?? "biometrics cannot be evaluated")
        }
        switch code {
        case .userCancel, .appCancel, .systemCancel, .userFallback, .authenticationFailed: return .cancelled
        case .biometryNotAvailable, .biometryNotEnrolled, .passcodeNotSet: return .unavailable
        case .biometryLockout: return .lockedOut
        default: return .failed("LocalAuthentication error \(error.code)")
        }
    }

    private static func failure(_ action: String, _ key: String, _ status: OSStatus) -> BiometricSecretStoreError {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
        return .failed("keychain \(action) of \(key) failed: \(message)")
    }
}
#endif
