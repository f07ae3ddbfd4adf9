import Foundation
import Testing

@testable import TandemSharedContainer

@Suite("Shared sealing key")
struct SharedSealingKeyTests {
    @Test func provisioningIsIdempotentAndTheWidgetLoadsTheSameKey() throws {
        let home = try ContainerHome()
        #expect(try SharedSealingKey.load(from: home.sharedSecrets) == nil)
        let first = try SharedSealingKey.provision(in: home.sharedSecrets)
        let second = try SharedSealingKey.provision(in: home.sharedSecrets)
        let loaded = try #require(try SharedSealingKey.load(from: home.sharedSecrets))
        #expect(first.symmetricKey == second.symmetricKey)
        #expect(loaded.symmetricKey == first.symmetricKey)
        #expect("\(first)" == "SharedSealingKey(<redacted>)")
    }

    @Test func aDamagedStoredKeyIsATypedErrorAndProvisioningReplacesIt() throws {
        let home = try ContainerHome()
        try home.sharedSecrets.set(Data([1, 2, 3]), forKey: SharedSealingKey.storageKey)
        #expect(throws: SharedContainerError.secretStorage("the stored shared sealing key is damaged")) { try SharedSealingKey.load(from: home.sharedSecrets) }
        let replaced = try SharedSealingKey.provision(in: home.sharedSecrets)
        #expect(try SharedSealingKey.load(from: home.sharedSecrets)?.symmetricKey == replaced.symmetricKey)
    }

    @Test func theKeyNeverLandsInTheSharedContainer() throws {
        let home = try ContainerHome()
        let key = try SharedSealingKey.provision(in: home.sharedSecrets)
        let container = try home.container()
        try container.requests.submit(kind: "entities", key: EntityKey(destination: "eu", entitySet: "orders"), share: .random(), sealingKey: key)
        let keyBytes = key.symmetricKey.withUnsafeBytes { Data($0) }
        for (url, bytes) in try home.containerFiles() {
            #expect(bytes.range(of: keyBytes) == nil, "the shared sealing key is in \(url.lastPathComponent)")
        }
    }
}
