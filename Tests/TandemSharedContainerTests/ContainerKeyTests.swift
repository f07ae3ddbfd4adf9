import Crypto
import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Container keys")
struct ContainerKeyTests {
    @Test func theKeyIsHKDFOfTheShareSaltedWithItsKeyIDPerPurpose() throws {
        let share = try AuxiliaryShare.random()
        for purpose in ContainerKey.Purpose.allCases {
            let expected = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: share.bytes), salt: share.keyID,
                info: Data("tandem.container.\(purpose.rawValue).v1".utf8), outputByteCount: 32)
            #expect(ContainerKey(share: share, purpose: purpose).symmetricKey == expected)
        }
    }

    @Test func bothSidesDeriveTheSameKeyAndEachPurposeAndShareAnother() throws {
        let share = try AuxiliaryShare.random()
        let copy = try AuxiliaryShare(serialized: share.serialized)
        #expect(ContainerKey(share: share, purpose: .snapshots).symmetricKey == ContainerKey(share: copy, purpose: .snapshots).symmetricKey)
        #expect(ContainerKey(share: share, purpose: .snapshots).symmetricKey != ContainerKey(share: share, purpose: .grant).symmetricKey)
        let other = try AuxiliaryShare.random()
        #expect(ContainerKey(share: share, purpose: .grant).symmetricKey != ContainerKey(share: other, purpose: .grant).symmetricKey)
    }

    @Test func descriptionsNeverShowTheKey() throws {
        let key = ContainerKey(share: try AuxiliaryShare.random(), purpose: .grant)
        #expect("\(key)" == "ContainerKey(grant, <redacted>)")
        #expect(String(reflecting: key) == "ContainerKey(grant, <redacted>)")
    }
}

extension AuxiliaryShare {
    /// A fresh random share, as `Vault.enableExtensionAccess` would make.
    static func random() throws -> AuxiliaryShare {
        try AuxiliaryShare(keyID: Data((0..<16).map { _ in UInt8.random(in: 0...255) }), bytes: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }
}
