import Foundation
import GRDB
import TandemPlatform
import Testing

@testable import TandemVault

@Suite("Tampering")
struct TamperingTests {
    @Test func flippingAnyByteOfAnItemGivesTamperedForThatItemOnly() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        let victimValue = Data.random(count: 1024)
        try vault.set(victimValue, forKey: "victim")
        try vault.set(Data("bystander".utf8), forKey: "bystander")
        let raw = try home.rawDatabase()
        let victimID = try vault.storedID(forKey: "victim")
        let original = try #require(try raw.read { db in
            try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id = ?", arguments: [victimID])
        })

        for index in 0..<original.count {
            try raw.write { db in
                try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [original.flippingBit(at: index), victimID])
            }
            #expect(throws: VaultError.tampered("item \"victim\"")) { try vault.data(forKey: "victim") }
            #expect(try vault.data(forKey: "bystander") == Data("bystander".utf8))
        }
        // Truncated and swapped boxes are tampering too.
        try raw.write { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [original.prefix(20), victimID])
        }
        #expect(throws: VaultError.tampered("item \"victim\"")) { try vault.data(forKey: "victim") }
        let bystanderBox = try #require(try raw.read { db in
            try Data.fetchOne(db, sql: "SELECT sealed FROM vault_item WHERE id != ?", arguments: [victimID])
        })
        try raw.write { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [bystanderBox, victimID])
        }
        #expect(throws: VaultError.tampered("item \"victim\"")) { try vault.data(forKey: "victim") }

        try raw.write { db in
            try db.execute(sql: "UPDATE vault_item SET sealed = ? WHERE id = ?", arguments: [original, victimID])
        }
        #expect(try vault.data(forKey: "victim") == victimValue)
    }

    @Test func flippingAnyByteOfAWrappedKeyIsReportedAsTamperingNotAsAWrongPasscode() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("secret".utf8), forKey: "k")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        vault.lock()
        let raw = try home.rawDatabase()
        let slots = try raw.read { db in try Row.fetchAll(db, sql: "SELECT id, parameters, wrapped, checksum FROM vault_keyslot") }
        #expect(slots.count == 2)

        for slot in slots {
            let id: String = slot["id"]
            for column in ["parameters", "wrapped", "checksum"] {
                let original: Data = slot[column]
                for index in 0..<original.count {
                    try raw.write { db in
                        try db.execute(sql: "UPDATE vault_keyslot SET \(column) = ? WHERE id = ?", arguments: [original.flippingBit(at: index), id])
                    }
                    if id == "passcode" {
                        #expect(throws: VaultError.tampered("key slot passcode")) { try vault.unlock(passcode: VaultFixture.passcode) }
                    } else {
                        #expect(throws: VaultError.tampered("key slot \(id)")) { try vault.unlock(pairedKey: share) }
                    }
                    #expect(!vault.isUnlocked)
                }
                try raw.write { db in
                    try db.execute(sql: "UPDATE vault_keyslot SET \(column) = ? WHERE id = ?", arguments: [original, id])
                }
            }
        }
        // Tampering never counted as a guess, and the untouched vault still opens both ways.
        #expect(try vault.status().failedAttempts == 0)
        try vault.unlock(passcode: VaultFixture.passcode)
        vault.lock()
        try vault.unlock(pairedKey: share)
        #expect(try vault.data(forKey: "k") == Data("secret".utf8))
    }

    @Test func flippingAnyByteOfTheGenerationRecordIsTampering() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        vault.lock()
        let raw = try home.rawDatabase()
        let original = try #require(try raw.read { db in try Data.fetchOne(db, sql: "SELECT value FROM vault_meta WHERE key = 'generation'") })
        for index in 0..<original.count {
            try raw.write { db in
                try db.execute(sql: "UPDATE vault_meta SET value = ? WHERE key = 'generation'", arguments: [original.flippingBit(at: index)])
            }
            #expect(throws: VaultError.tampered("the generation record")) { try vault.unlock(passcode: VaultFixture.passcode) }
        }
    }

    @Test func valuesOfTheWrongTypeAreReportedNotCrashedOn() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()
        let raw = try home.rawDatabase()
        try raw.write { db in try db.execute(sql: "UPDATE vault_keyslot SET wrapped = 42 WHERE id = 'passcode'") }
        #expect(throws: VaultError.tampered("a key slot")) { try vault.unlock(passcode: VaultFixture.passcode) }
        try raw.write { db in try db.execute(sql: "UPDATE vault_meta SET value = 1 WHERE key = 'mode'") }
        #expect(throws: VaultError.corrupt("the vault header has values of the wrong type")) { try vault.status() }
        #expect(throws: VaultError.corrupt("the vault header has values of the wrong type")) { try vault.unlock(passcode: VaultFixture.passcode) }
    }

    @Test func randomByteFlipsInTheVaultFileNeverYieldAWrongValueOrACrash() throws {
        let home = try VaultFixture()
        var expected: [String: Data] = [:]
        do {
            let vault = try home.createdVault()
            for index in 0..<30 {
                let value = Data.random(count: 200)
                expected["item-\(index)"] = value
                try vault.set(value, forKey: "item-\(index)")
            }
        }
        // Fold the WAL into the main file so that every byte of the vault is in one place.
        try home.rawDatabase().writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        let pristine = try Data(contentsOf: home.vaultFile)
        var generator = SystemRandomNumberGenerator()
        var outcomes = (values: 0, errors: 0)
        for _ in 0..<300 {
            let index = Int.random(in: 0..<pristine.count, using: &generator)
            try pristine.flippingBit(at: index, bit: 1 << UInt8.random(in: 0...7, using: &generator)).write(to: home.vaultFile)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: home.vaultFile.path + suffix) }
            let vault = home.vault()
            do {
                try vault.unlock(passcode: VaultFixture.passcode)
            } catch {
                outcomes.errors += 1
                continue
            }
            for (key, value) in expected {
                do {
                    let read = try vault.data(forKey: key)
                    // A flip may hide an item (its id changed) but must never change a value.
                    #expect(read == nil || read == value, "item \(key) read back a different value after flipping byte \(index)")
                    outcomes.values += 1
                } catch {
                    outcomes.errors += 1
                }
            }
        }
        #expect(outcomes.values > 0)
    }
}
