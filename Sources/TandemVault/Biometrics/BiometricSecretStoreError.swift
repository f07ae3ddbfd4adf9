import Foundation

/// What can go wrong with a ``BiometricSecretStore``. The vault reports each case as its own
/// ``VaultError`` (``VaultError/biometricsCancelled``, ``VaultError/biometricsChanged``, …).
public enum BiometricSecretStoreError: Error, Sendable, Equatable {
    /// The user dismissed the prompt, chose to enter the passcode instead, or was not
    /// recognised; the system or the app may also have cancelled it. Nothing is wrong.
    case cancelled
    /// The secret is gone: the enrolled faces or fingers changed (the keychain then invalidates
    /// items bound to the enrolment), or it was never stored. It will never come back.
    case biometryChanged
    /// The device has no biometry, none is enrolled, or no device passcode is set.
    case unavailable
    /// Too many failed biometric attempts: the system asks for the device passcode before
    /// biometrics work again.
    case lockedOut
    /// The storage failed; the message says how.
    case failed(String)
}

extension BiometricSecretStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cancelled: "biometric authentication was cancelled"
        case .biometryChanged: "the biometric secret is gone (the enrolment changed)"
        case .unavailable: "biometric authentication is not available on this device"
        case .lockedOut: "biometric authentication is locked out"
        case .failed(let reason): "biometric secret storage failed: \(reason)"
        }
    }
}
