import Foundation
import TandemVault
import Testing

@testable import TandemSharedContainer

@Suite("Bridge key")
struct BridgeKeyTests {
    @Test func provisioningIsIdempotentAndTheWidgetLoadsTheSameKey() throws {
        let home = try BridgeHome()
        #expect(try BridgeKey.load(from: home.sharedSecrets) == nil)
        let first = try BridgeKey.provision(in: home.sharedSecrets)
        let second = try BridgeKey.provision(in: home.sharedSecrets)
        let loaded = try #require(try BridgeKey.load(from: home.sharedSecrets))
        #expect(first.symmetricKey == second.symmetricKey)
        #expect(loaded.symmetricKey == first.symmetricKey)
        #expect("\(first)" == "BridgeKey(<redacted>)")
    }

    @Test func aDamagedStoredKeyIsATypedErrorAndProvisioningReplacesIt() throws {
        let home = try BridgeHome()
        try home.sharedSecrets.set(Data([1, 2, 3]), forKey: BridgeKey.storageKey)
        #expect(throws: BridgeError.secretStorage("the stored bridge key is damaged")) { try BridgeKey.load(from: home.sharedSecrets) }
        let replaced = try BridgeKey.provision(in: home.sharedSecrets)
        #expect(try BridgeKey.load(from: home.sharedSecrets)?.symmetricKey == replaced.symmetricKey)
    }

    @Test func theKeyNeverLandsInTheSharedContainer() throws {
        let home = try BridgeHome()
        let key = try BridgeKey.provision(in: home.sharedSecrets)
        let container = try home.container()
        try container.requests.submit(kind: "entities", key: EntityKey(destination: "eu", entitySet: "orders"), share: .random(), bridgeKey: key)
        let keyBytes = key.symmetricKey.withUnsafeBytes { Data($0) }
        for (url, bytes) in try home.containerFiles() {
            #expect(bytes.range(of: keyBytes) == nil, "the bridge key is in \(url.lastPathComponent)")
        }
    }
}
