#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A P-256 key that signs DPoP proofs: ``SoftwareDPoPKey`` (on Linux and in tests) or, on iOS,
/// a Secure Enclave key whose private part never leaves the chip.
public protocol DPoPSigner: Sendable {
    /// The public key the proofs carry.
    var publicKey: DPoPPublicKey { get }
    /// An ES256 signature of `message`: r ‖ s, 64 bytes.
    func signature(for message: Data) throws -> Data
}
