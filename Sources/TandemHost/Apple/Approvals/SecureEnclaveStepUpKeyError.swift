#if canImport(Security) && os(iOS)
import Foundation
import Security

/// Why ``SecureEnclaveStepUpKey`` could not be made, found or sign.
public enum SecureEnclaveStepUpKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key cannot be made here: the device has no Secure Enclave (the simulator, an old
    /// device) or no passcode is set (a key that asks for user presence needs one). Ask the user
    /// to set a passcode, or use `VaultStepUpKey` where the app accepts it; `reason` is for logs.
    case unavailable(reason: String)
    /// The keychain answered `status` (an `OSStatus`, such as `errSecMissingEntitlement` for an
    /// access group the app does not have).
    case keychain(status: OSStatus)
    /// The user cancelled the Face ID or passcode prompt: nothing was signed. Ask again only
    /// when the user acts again.
    case cancelled
    /// The Secure Enclave did not sign (the key was invalidated, the passcode was removed);
    /// `reason` is for logs. Delete the key and register a new one at the next sign-in.
    case signingFailed(reason: String)
    /// The key's public half or a signature was not a P-256 value: a key under the tag that is
    /// not one of these.
    case malformedKey

    /// What went wrong, in words meant for logs.
    public var description: String {
        switch self {
        case .unavailable(let reason): "no Secure Enclave key can be made here: \(reason)"
        case .keychain(let status): "the keychain refused the step-up key (OSStatus \(status))"
        case .cancelled: "the user cancelled the confirmation"
        case .signingFailed(let reason): "the Secure Enclave did not sign: \(reason)"
        case .malformedKey: "the key under the tag is not a P-256 Secure Enclave key"
        }
    }
}
#endif
