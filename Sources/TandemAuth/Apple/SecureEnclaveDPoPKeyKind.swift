#if canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security
import TandemProtocol

/// DPoP keys in the Secure Enclave: the private key is made in the chip and never leaves it;
/// what is stored (in the ``DPoPKeyStore``'s keychain) is a blob only this device's Secure
/// Enclave can use, so neither a stolen keychain item nor a backup signs a proof elsewhere.
/// Usable after the first unlock, as widgets refresh while the phone is locked.
public struct SecureEnclaveDPoPKeyKind: DPoPKeyKind {
    public init() {}

    public var tag: UInt8 { 2 }
    public var isAvailable: Bool { SecureEnclave.isAvailable }

    public func make() throws -> (signer: any DPoPSigner, stored: Data) {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, &error)
        else {
            throw error.map { $0.takeRetainedValue() as Error } ?? AuthError.dpopKey("the Secure Enclave key's access control cannot be made")
        }
        let key = try SecureEnclave.P256.Signing.PrivateKey(compactRepresentable: false, accessControl: access)
        return (SecureEnclaveDPoPKey(key: key), key.dataRepresentation)
    }

    public func restore(_ stored: Data) throws -> any DPoPSigner {
        SecureEnclaveDPoPKey(key: try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored))
    }
}

/// A DPoP signer backed by a Secure Enclave key. The key is an immutable value (a reference
/// to the chip's key), which the iOS 17 SDK and later declare `Sendable`; the iOS 16 SDK does
/// not yet, hence `@unchecked`.
struct SecureEnclaveDPoPKey: DPoPSigner, @unchecked Sendable {
    let key: SecureEnclave.P256.Signing.PrivateKey

    var publicKey: DPoPPublicKey { DPoPPublicKey(key.publicKey) }

    func signature(for message: Data) throws -> Data {
        try key.signature(for: message).rawRepresentation
    }
}
#endif
