import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// A key for sealed records in the shared container, derived from the extensions' auxiliary
/// share so that the host (which receives the share with each request) and every extension
/// (which holds it) derive the same key, and nobody else can.
///
/// Each ``Purpose`` gets its own key, so a snapshot can never be opened as a grant. Rotating the
/// paired key changes the share and with it every container key: records sealed before the
/// rotation read as ``SharedContainerError/undecryptable(path:)`` and are simply written again.
///
/// ```swift
/// guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { return }
/// let grantKey = ContainerKey(share: share, purpose: .grant)
/// try container.sealed.write(grantJSON, kind: "grant", to: "grant", key: grantKey)
/// ```
public struct ContainerKey: Sendable {
    /// What the key seals; each purpose derives a different key.
    public enum Purpose: String, Sendable, CaseIterable {
        /// Snapshots of fetched data, written by the host, read by widgets.
        case snapshots
        /// The direct-mode extension grant (a token set).
        case grant
    }

    /// What this key seals.
    public let purpose: Purpose
    let symmetricKey: SymmetricKey

    /// Derives the key for `purpose`:
    /// HKDF-SHA256(ikm: share.bytes, salt: share.keyID, info: `tandem.container.<purpose>.v1`), 256-bit.
    ///
    /// - Parameters:
    ///   - share: The extensions' auxiliary share (from `AuxiliaryShare/load(from:vaultName:)`
    ///     in an extension, from the request in the host).
    ///   - purpose: What the key will seal.
    public init(share: AuxiliaryShare, purpose: Purpose) {
        self.purpose = purpose
        symmetricKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: share.bytes), salt: share.keyID,
            info: Data("tandem.container.\(purpose.rawValue).v1".utf8), outputByteCount: 32)
    }
}

extension ContainerKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// Names the purpose only; the key never appears in logs.
    public var description: String { "ContainerKey(\(purpose.rawValue), <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
