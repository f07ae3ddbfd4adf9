import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemTestSupport
import Testing

/// A grant's DPoP key lives in secret storage: the same key comes back in a new process, a
/// stored form this device cannot use is replaced by a new key (and said so in the log), and a
/// removed key is gone.
@Suite("DPoP key store")
struct DPoPKeyStoreTests {
    /// A kind whose stored keys never restore: a Secure Enclave blob on another phone.
    struct ForeignDeviceKind: DPoPKeyKind {
        var tag: UInt8 { 2 }
        var isAvailable: Bool { false }
        func make() throws -> (signer: any DPoPSigner, stored: Data) { throw AuthError.dpopKey("not on this device") }
        func restore(_ stored: Data) throws -> any DPoPSigner { throw AuthError.dpopKey("not this device's enclave") }
    }

    @Test func theSameKeyComesBackFromStorage() throws {
        let directory = try TemporaryDirectory()
        let secrets = try FileSecretStorage(directory: directory.url)
        let first = try DPoPKeyStore(secrets: secrets, name: "widgets").key()
        let again = try DPoPKeyStore(secrets: try FileSecretStorage(directory: directory.url), name: "widgets").key()
        #expect(again.publicKey.thumbprint == first.publicKey.thumbprint)
        let other = try DPoPKeyStore(secrets: secrets, name: "host").key()
        #expect(other.publicKey.thumbprint != first.publicKey.thumbprint, "each grant has its own key")
        // It signs proofs that verify under the key it reports.
        let proof = try DPoPProof(parsing: try DPoPProof.make(
            signer: again, method: "POST", url: URL(string: "https://tandem.example.com/oauth/token")!, issuedAt: Date()))
        #expect(proof.publicKey.thumbprint == first.publicKey.thumbprint)
    }

    @Test func aKeyThisDeviceCannotUseIsReplaced() throws {
        let directory = try TemporaryDirectory()
        let secrets = try FileSecretStorage(directory: directory.url)
        try secrets.set(Data([2]) + Data(repeating: 7, count: 40), forKey: "tandem.dpop.host")
        let log = LogCapture()
        let store = DPoPKeyStore(secrets: secrets, name: "host", kinds: [ForeignDeviceKind(), SoftwareDPoPKeyKind()], logger: log.logger)
        let key = try store.key()
        #expect(try secrets.data(forKey: "tandem.dpop.host")?.first == 1, "a software key replaced the unusable blob")
        #expect(try store.key().publicKey.thumbprint == key.publicKey.thumbprint)
        #expect(log.lines.contains { $0.contains("does not work on this device") })
        // Corrupt bytes of a known kind are replaced too, never used.
        try secrets.set(Data([1, 0, 0]), forKey: "tandem.dpop.host")
        #expect(try store.key().publicKey.thumbprint != key.publicKey.thumbprint)
    }

    @Test func withoutAnAvailableKindThereIsATypedError() throws {
        let directory = try TemporaryDirectory()
        let store = DPoPKeyStore(secrets: try FileSecretStorage(directory: directory.url), name: "host", kinds: [ForeignDeviceKind()])
        #expect(throws: AuthError.dpopKey("no kind of DPoP key is available on this device")) { try store.key() }
    }

    @Test func aRemovedKeyIsGone() throws {
        let directory = try TemporaryDirectory()
        let secrets = try FileSecretStorage(directory: directory.url)
        let store = DPoPKeyStore(secrets: secrets, name: "widgets")
        let first = try store.key()
        try store.remove()
        #expect(try secrets.data(forKey: "tandem.dpop.widgets") == nil)
        #expect(try store.key().publicKey.thumbprint != first.publicKey.thumbprint)
    }
}
