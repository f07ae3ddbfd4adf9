#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// A kind of DPoP key: how one is made, and how it comes back from what was stored.
/// ``SoftwareDPoPKeyKind`` everywhere; on iOS `SecureEnclaveDPoPKeyKind`, whose stored form is
/// a blob only this device's Secure Enclave can use (the private key never leaves the chip).
public protocol DPoPKeyKind: Sendable {
    /// The first byte of the stored form, which says which kind stored it.
    var tag: UInt8 { get }
    /// Whether this device can make and use such keys.
    var isAvailable: Bool { get }
    /// A new key and its stored form.
    func make() throws -> (signer: any DPoPSigner, stored: Data)
    /// The key `stored` holds.
    func restore(_ stored: Data) throws -> any DPoPSigner
}

/// Keys held in memory and stored as their private scalar, in the secret storage the
/// ``DPoPKeyStore`` is given (the keychain on Apple platforms).
public struct SoftwareDPoPKeyKind: DPoPKeyKind {
    public init() {}

    public var tag: UInt8 { 1 }
    public var isAvailable: Bool { true }

    public func make() throws -> (signer: any DPoPSigner, stored: Data) {
        let key = SoftwareDPoPKey()
        return (key, key.rawRepresentation)
    }

    public func restore(_ stored: Data) throws -> any DPoPSigner {
        try SoftwareDPoPKey(rawRepresentation: stored)
    }
}
