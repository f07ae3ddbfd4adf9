#if canImport(CryptoKit) && canImport(Security) && canImport(LocalAuthentication) && os(iOS)
import CryptoKit
import Foundation
import LocalAuthentication
import Security
import TandemProtocol

/// The user's step-up key on a phone: a P-256 key made in the Secure Enclave, whose every
/// signature asks for Face ID, Touch ID or the passcode (`.userPresence`). The private key never
/// leaves the chip and cannot be used without the user, so a step-up proof it signs (the
/// `Tandem-Step-Up` header of a high-value action) says the user was there, whatever the app's
/// code did before.
///
/// The key is a permanent keychain item under ``tag`` (`kSecAttrApplicationTag`), usable only
/// while the device has a passcode (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`): removing
/// the passcode destroys it, and a backup carries nothing. Give it to ``AuthenticationStep``,
/// which enrols it with each sign-in (one Face ID prompt for the enrolment's signature), and to
/// ``ActionExecutionStep``, which signs the step-up proofs with it in the restoring flow:
///
/// ```swift
/// let stepUpKey: @Sendable (FlowContext) async throws -> (any DPoPSigner)? = { _ in
///     try SecureEnclaveStepUpKey.key(tag: "com.example.sales.step-up")
/// }
/// Flow([ /* … */ AuthenticationStep(stepUpKey: stepUpKey), /* … */ ActionExecutionStep(stepUpKey: stepUpKey) ])
/// ```
///
/// Finding or making the key asks nothing of the user; only ``signature(for:)`` does. The app's
/// Info.plist needs `NSFaceIDUsageDescription`.
public struct SecureEnclaveStepUpKey: DPoPSigner, @unchecked Sendable {
    // @unchecked: `SecKey` is an immutable reference to the chip's key, safe to use from any
    // thread, which the Security framework does not declare `Sendable`.

    /// The tag used when none is given.
    public static let defaultTag = "tandem.step-up-key"

    /// The key's keychain tag.
    public let tag: String
    /// The public half, as proofs and the server's registration carry it.
    public let publicKey: DPoPPublicKey
    private let privateKey: SecKey

    private init(tag: String, privateKey: SecKey) throws(SecureEnclaveStepUpKeyError) {
        var error: Unmanaged<CFError>?
        guard let publicKey = SecKeyCopyPublicKey(privateKey),
              let raw = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?
        else {
            error?.release()
            throw .malformedKey
        }
        do {
            self.publicKey = DPoPPublicKey(try P256.Signing.PublicKey(x963Representation: raw))
        } catch {
            throw .malformedKey
        }
        self.tag = tag
        self.privateKey = privateKey
    }

    // MARK: - Keychain

    /// The key under `tag`, made in the Secure Enclave first if there is none.
    ///
    /// - Parameters:
    ///   - tag: The key's keychain tag; one key per tag.
    ///   - accessGroup: The keychain access group, or `nil` for the app's default one. Name the
    ///     app's own group (never the group shared with extensions) once Keychain Sharing is on.
    ///   - reason: What the Face ID or passcode prompt says when the key signs, such as
    ///     "Approve PR-1003"; `nil` for the system's wording with `NSFaceIDUsageDescription`.
    /// - Throws: ``SecureEnclaveStepUpKeyError/unavailable(reason:)`` without a Secure Enclave or
    ///   a passcode; ``SecureEnclaveStepUpKeyError/keychain(status:)``.
    public static func key(tag: String = defaultTag, accessGroup: String? = nil, reason: String? = nil) throws(SecureEnclaveStepUpKeyError) -> SecureEnclaveStepUpKey {
        if let found = try find(tag: tag, accessGroup: accessGroup, reason: reason) { return found }
        return try make(tag: tag, accessGroup: accessGroup, reason: reason)
    }

    /// The key under `tag`, or `nil` when there is none; see ``key(tag:accessGroup:reason:)``.
    ///
    /// - Throws: ``SecureEnclaveStepUpKeyError/keychain(status:)``,
    ///   ``SecureEnclaveStepUpKeyError/malformedKey``.
    public static func find(tag: String = defaultTag, accessGroup: String? = nil, reason: String? = nil) throws(SecureEnclaveStepUpKeyError) -> SecureEnclaveStepUpKey? {
        var query = baseQuery(tag: tag, accessGroup: accessGroup)
        query[kSecReturnRef as String] = true
        if let reason {
            // Read when the key signs: the prompt then names what the user confirms.
            let context = LAContext()
            context.localizedReason = reason
            query[kSecUseAuthenticationContext as String] = context
        }
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        switch status {
        case errSecSuccess:
            guard let item, CFGetTypeID(item) == SecKeyGetTypeID() else { throw .malformedKey }
            return try SecureEnclaveStepUpKey(tag: tag, privateKey: unsafeDowncast(item, to: SecKey.self))
        case errSecItemNotFound:
            return nil
        default:
            throw .keychain(status: status)
        }
    }

    /// Deletes the key under `tag`, if any: at sign-out, so the next sign-in registers a new
    /// one (the server keeps one key per sign-in).
    ///
    /// - Throws: ``SecureEnclaveStepUpKeyError/keychain(status:)``.
    public static func delete(tag: String = defaultTag, accessGroup: String? = nil) throws(SecureEnclaveStepUpKeyError) {
        let status = SecItemDelete(baseQuery(tag: tag, accessGroup: accessGroup) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .keychain(status: status) }
    }

    private static func make(tag: String, accessGroup: String?, reason: String?) throws(SecureEnclaveStepUpKeyError) -> SecureEnclaveStepUpKey {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .userPresence], &error)
        else {
            throw .unavailable(reason: describe(error))
        }
        var attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecAttrAccessControl as String: access,
            ] as [String: Any],
        ]
        if let accessGroup { attributes[kSecAttrAccessGroup as String] = accessGroup }
        guard SecKeyCreateRandomKey(attributes as CFDictionary, &error) != nil else {
            throw .unavailable(reason: describe(error))
        }
        // Found again rather than kept: the stored item is the one that signs, with the prompt's reason.
        guard let made = try find(tag: tag, accessGroup: accessGroup, reason: reason) else { throw .keychain(status: errSecItemNotFound) }
        return made
    }

    private static func baseQuery(tag: String, accessGroup: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecAttrApplicationTag as String: Data(tag.utf8),
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    // MARK: - Signing

    /// An ES256 signature of `message` (r ‖ s, 64 bytes), after the user confirms with Face ID,
    /// Touch ID or the passcode.
    ///
    /// - Throws: ``SecureEnclaveStepUpKeyError/cancelled`` when the user cancels the prompt,
    ///   ``SecureEnclaveStepUpKeyError/signingFailed(reason:)`` otherwise.
    public func signature(for message: Data) throws(SecureEnclaveStepUpKeyError) -> Data {
        var error: Unmanaged<CFError>?
        guard let der = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data? else {
            let failure = error?.takeRetainedValue()
            if let failure, Self.isCancellation(failure) { throw .cancelled }
            throw .signingFailed(reason: failure.map { "\($0)" } ?? "no reason given")
        }
        // The Secure Enclave signs in X9.62 DER; JWS wants the raw 32-byte r and s.
        do {
            return try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation
        } catch {
            throw .malformedKey
        }
    }

    private static func isCancellation(_ error: CFError) -> Bool {
        let domain = CFErrorGetDomain(error) as String
        let code = CFErrorGetCode(error)
        if domain == LAErrorDomain {
            return [LAError.Code.userCancel, .appCancel, .systemCancel].map(\.rawValue).contains(code)
        }
        return domain == NSOSStatusErrorDomain && code == Int(errSecUserCanceled)
    }

    private static func describe(_ error: Unmanaged<CFError>?) -> String {
        error.map { "\($0.takeRetainedValue())" } ?? "no reason given"
    }
}
#endif
