#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What can go wrong with a ``SecretStorage`` or with the ``AuxiliaryShare`` kept in one.
///
/// The vault reports these as its own `VaultError` cases; an extension catches them directly:
///
/// ```swift
/// do {
///     share = try AuxiliaryShare.load(from: sharedSecrets)
/// } catch .deviceLocked {
///     showLastRowsAsUnavailable()
/// }
/// ```
public enum SecretStorageError: Error, Sendable, Equatable {
    /// The storage (keychain or secrets directory) failed; the message says how.
    case failed(String)
    /// The secrets cannot be read now because the device is locked and has not been unlocked
    /// since it started (the keychain's errSecInteractionNotAllowed). Nothing is wrong with the
    /// session: a widget shows its last rows as unavailable and tries again later, never
    /// "signed out".
    case deviceLocked
    /// An auxiliary share that is not one: wrong length or format (damaged, or written by
    /// someone else).
    case malformedShare
}

extension SecretStorageError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .failed(let reason): "secret storage failed: \(reason)"
        case .deviceLocked: "the device is locked: its secrets cannot be read until it is unlocked"
        case .malformedShare: "the auxiliary share is malformed"
        }
    }
}
