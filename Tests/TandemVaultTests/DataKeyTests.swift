import Crypto
import Foundation
import Testing
@testable import TandemVault

@Suite("Data key")
struct DataKeyTests {
    @Test func itemIDsAreStableDistinctAndEqualToAFreshHMAC() {
        let storeID = Data.random(count: 16)
        let dataKey = DataKey.generate(storeID: storeID)
        let indexKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: dataKey.key, salt: storeID, info: Data("tandem.vault.item-index".utf8), outputByteCount: 32)
        let names = ["refresh-token", "profile", "", "ünïcødé", String(repeating: "x", count: 500)]
        // Interleaved and repeated: the cached HMAC state must never carry over between ids.
        for _ in 0..<3 {
            for name in names {
                let expected = Data(HMAC<SHA256>.authenticationCode(for: Data(name.utf8), using: indexKey).prefix(16))
                #expect(dataKey.itemID(for: name) == expected)
            }
        }
        #expect(Set(names.map(dataKey.itemID(for:))).count == names.count)
    }

    @Test func aSealedItemOpensOnlyUnderItsOwnIDAndStore() throws {
        let dataKey = DataKey.generate(storeID: Data.random(count: 16))
        let id = dataKey.itemID(for: "a")
        let record = ItemSetRecord(generation: 3, sequence: 7, digest: dataKey.itemTag(id: id, nonce: try DataKey.freshNonce()))
        let sealed = try dataKey.seal(Data("value".utf8), itemID: id, nonce: try DataKey.freshNonce(), record: record)
        #expect(try dataKey.open(sealed, itemID: id, name: "a") == Data("value".utf8))
        #expect(try dataKey.openRecord(sealed, itemID: id) == record)
        #expect(throws: VaultError.tampered("item \"b\"")) { try dataKey.open(sealed, itemID: dataKey.itemID(for: "b"), name: "b") }
        #expect(throws: VaultError.tampered("the item set")) { try dataKey.openRecord(sealed, itemID: dataKey.itemID(for: "b")) }
        let otherStore = DataKey(key: dataKey.key, storeID: Data.random(count: 16))
        #expect(throws: VaultError.tampered("item \"a\"")) { try otherStore.open(sealed, itemID: id, name: "a") }
        // Fresh nonces: sealing the same value twice gives different boxes.
        #expect(try dataKey.seal(Data("value".utf8), itemID: id, nonce: try DataKey.freshNonce(), record: record) != sealed)
    }

    @Test func aBoxOfTheFormatBeforeBindingOpensAsItsValueAndCarriesNoRecord() throws {
        let dataKey = DataKey.generate(storeID: Data.random(count: 16))
        let id = dataKey.itemID(for: "a")
        let unbound = try dataKey.sealUnbound(Data("value".utf8), itemID: id)
        #expect(try dataKey.open(unbound, itemID: id, name: "a") == Data("value".utf8))
        #expect(throws: VaultError.tampered("the item set")) { try dataKey.openRecord(unbound, itemID: id) }
        #expect(throws: VaultError.tampered("item \"b\"")) { try dataKey.open(unbound, itemID: dataKey.itemID(for: "b"), name: "b") }
    }

    @Test func anItemsTagIsTheMACOfItsIDAndItsBoxsNonce() throws {
        let dataKey = DataKey.generate(storeID: Data.random(count: 16))
        let id = dataKey.itemID(for: "a")
        let nonce = try DataKey.freshNonce()
        let record = ItemSetRecord(generation: 1, sequence: 1, digest: .empty)
        let sealed = try dataKey.seal(Data("value".utf8), itemID: id, nonce: nonce, record: record)
        #expect(dataKey.itemTag(id: id, sealed: sealed) == dataKey.itemTag(id: id, nonce: nonce))
        #expect(dataKey.itemTag(id: id, sealed: Data(sealed.prefix(DataKey.nonceByteCount))) == dataKey.itemTag(id: id, nonce: nonce))
        #expect(dataKey.itemTag(id: dataKey.itemID(for: "b"), nonce: nonce) != dataKey.itemTag(id: id, nonce: nonce))
        #expect(dataKey.itemTag(id: id, nonce: try DataKey.freshNonce()) != dataKey.itemTag(id: id, nonce: nonce))
    }
}
