import Foundation
import TandemPlatform
import Testing

@testable import TandemVault

@Suite("Vault round trips")
struct VaultRoundTripTests {
    struct Profile: Codable, Equatable {
        var name: String
        var roles: [String]
    }

    @Test func valueWrittenUnderPasscodeReadsBackThroughPairedKey() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("refresh-token-value".utf8), forKey: "refresh-token")
        try vault.set(Profile(name: "Ada", roles: ["sales"]), forKey: "profile")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()
        #expect(throws: VaultError.locked) { try vault.data(forKey: "refresh-token") }

        // A new process (the background flow) opens with the share an extension sent.
        let background = home.vault()
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        try background.unlock(pairedKey: share)
        #expect(try background.data(forKey: "refresh-token") == Data("refresh-token-value".utf8))
        #expect(try background.value(Profile.self, forKey: "profile") == Profile(name: "Ada", roles: ["sales"]))
    }

    @Test func valueWrittenThroughPairedKeyReadsBackUnderPasscode() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()

        let background = home.vault()
        try background.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
        try background.set(Data("fetched-in-background".utf8), forKey: "snapshot")
        background.lock()

        let foreground = home.vault()
        try foreground.unlock(passcode: VaultFixture.passcode)
        #expect(try foreground.data(forKey: "snapshot") == Data("fetched-in-background".utf8))
    }

    @Test func wrongOrFlippedAuxiliaryShareGivesWrongPairedKeyAndNoData() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("secret".utf8), forKey: "item")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))

        let random = try AuxiliaryShare(keyID: share.keyID, bytes: Data.random(count: 32))
        #expect(throws: VaultError.wrongPairedKey) { try vault.unlock(pairedKey: random) }
        for index in 0..<share.serialized.count {
            for bit in [UInt8(0x01), 0x80] {
                let flipped = share.serialized.flippingBit(at: index, bit: bit)
                // A flipped format byte is refused as it is parsed; any other flip by the vault.
                do {
                    try vault.unlock(pairedKey: try AuxiliaryShare(serialized: flipped))
                    Issue.record("a flipped share opened the vault (byte \(index))")
                } catch let error as SecretStorageError {
                    #expect(error == .malformedShare && index == 0)
                } catch {
                    #expect(error as? VaultError == .wrongPairedKey)
                }
            }
        }
        #expect(!vault.isUnlocked)
        #expect(throws: VaultError.locked) { try vault.data(forKey: "item") }
        try vault.unlock(pairedKey: share)
        #expect(try vault.data(forKey: "item") == Data("secret".utf8))
    }

    @Test func rotatingThePairedKeyRetiresTheOldShare() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("v".utf8), forKey: "k")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let old = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        try vault.rotatePairedKey(shared: home.sharedSecrets)
        let new = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        #expect(old != new)
        vault.lock()
        #expect(throws: VaultError.wrongPairedKey) { try vault.unlock(pairedKey: old) }
        try vault.unlock(pairedKey: new)
        #expect(try vault.data(forKey: "k") == Data("v".utf8))
    }

    @Test func rotatingWithoutExtensionAccessIsRefused() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        #expect(throws: VaultError.extensionAccessNotEnabled) { try vault.rotatePairedKey(shared: home.sharedSecrets) }
    }

    @Test func disablingExtensionAccessRemovesBothShares() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        try vault.disableExtensionAccess(shared: home.sharedSecrets)
        #expect(try AuxiliaryShare.load(from: home.sharedSecrets) == nil)
        #expect(try vault.status().extensionAccessEnabled == false)
        vault.lock()
        #expect(throws: VaultError.wrongPairedKey) { try vault.unlock(pairedKey: share) }
    }

    @Test func changingThePasscodeKeepsEveryItem() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        for index in 0..<20 { try vault.set(Data("value-\(index)".utf8), forKey: "item-\(index)") }
        try vault.changePasscode(old: VaultFixture.passcode, new: "a-new-passcode-9", cost: VaultFixture.fastCost)
        vault.lock()
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 99)) { try vault.unlock(passcode: VaultFixture.passcode) }
        try vault.unlock(passcode: "a-new-passcode-9")
        for index in 0..<20 { #expect(try vault.data(forKey: "item-\(index)") == Data("value-\(index)".utf8)) }
    }

    @Test func newPasscodeMustMeetThePolicy() throws {
        let home = try VaultFixture()
        let policy = PasscodePolicy(minimumLength: 8, requiredCharacterClasses: [.digit, .symbol], maximumAttempts: 5)
        #expect(throws: VaultError.policyViolation([.tooShort(minimum: 8), .missingCharacterClass(.digit), .missingCharacterClass(.symbol)])) {
            try home.vault().create(passcode: "abc", policy: policy, cost: VaultFixture.fastCost)
        }
        #expect(try home.vault().status().exists == false)
        let vault = home.vault()
        try vault.create(passcode: "abcdefg-1", policy: policy, cost: VaultFixture.fastCost)
        #expect(throws: VaultError.policyViolation([.missingCharacterClass(.digit)])) {
            try vault.changePasscode(old: "abcdefg-1", new: "abcdefgh-", cost: VaultFixture.fastCost)
        }
        #expect(try vault.status().failedAttempts == 0)
    }

    @Test func removedValuesAreGoneAndMissingKeysReadAsNil() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set("hello", forKey: "greeting")
        #expect(try vault.value(String.self, forKey: "greeting") == "hello")
        try vault.removeValue(forKey: "greeting")
        #expect(try vault.value(String.self, forKey: "greeting") == nil)
        #expect(try vault.data(forKey: "never-set") == nil)
        try vault.set(Data([0, 1, 2]), forKey: "raw")
        #expect(try vault.value(Data.self, forKey: "raw") == Data([0, 1, 2]))
    }

    @Test func vaultWithoutPasscodeOpensWithTheDeviceSecret() throws {
        let home = try VaultFixture()
        let vault = home.vault()
        try vault.createWithoutPasscode()
        try vault.set(Data("x".utf8), forKey: "k")
        vault.lock()
        #expect(throws: VaultError.noPasscodeSet) { try vault.unlock(passcode: "anything") }
        let later = home.vault()
        try later.unlock()
        #expect(try later.data(forKey: "k") == Data("x".utf8))
        #expect(try later.status().protection == .deviceOnly)
    }

    @Test func creatingTwiceIsRefusedAndDestroyStartsOver() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("x".utf8), forKey: "k")
        #expect(throws: VaultError.alreadyExists) { try vault.createWithoutPasscode() }
        try vault.destroy()
        #expect(try vault.status().exists == false)
        #expect(throws: VaultError.notCreated) { try vault.unlock(passcode: VaultFixture.passcode) }
        try vault.create(passcode: VaultFixture.passcode, cost: VaultFixture.fastCost)
        #expect(try vault.data(forKey: "k") == nil)
    }

    @Test func aFailedUnlockLeavesTheVaultLocked() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.set(Data("x".utf8), forKey: "k")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        #expect(throws: VaultError.wrongPairedKey) {
            try vault.unlock(pairedKey: try AuxiliaryShare(keyID: share.keyID, bytes: Data(count: 32)))
        }
        #expect(throws: VaultError.locked) { try vault.data(forKey: "k") }
        try vault.unlock(pairedKey: share)
        #expect(throws: VaultError.wrongPasscode(remainingAttempts: 99)) { try vault.unlock(passcode: "wrong") }
        #expect(throws: VaultError.locked) { try vault.data(forKey: "k") }
    }

    @Test func composedAndDecomposedAccentsAreTheSamePasscode() throws {
        let home = try VaultFixture()
        let vault = home.vault()
        try vault.create(passcode: "caf\u{00E9}-passcode", cost: VaultFixture.fastCost)
        vault.lock()
        try vault.unlock(passcode: "cafe\u{0301}-passcode")
    }

    @Test func aVaultLeftByAnInterruptedDestroyCanBeCreatedAgain() throws {
        let home = try VaultFixture()
        do { _ = try home.createdVault() }
        // destroy() removes the secrets first; a kill right after leaves the file behind.
        try home.hostSecrets.removeData(forKey: "vault.device-secret")
        let vault = home.vault()
        #expect(throws: VaultError.self) { try vault.unlock(passcode: VaultFixture.passcode) }
        try vault.create(passcode: VaultFixture.passcode, cost: VaultFixture.fastCost)
        vault.lock()
        try vault.unlock(passcode: VaultFixture.passcode)
    }

    @Test func aFileLeftByAnInterruptedCreateCanBeCreatedAgain() throws {
        let home = try VaultFixture()
        try FileManager.default.createDirectory(at: home.hostDirectory, withIntermediateDirectories: true)
        // SQLite has created the file but no table has been committed yet.
        _ = try home.rawDatabase()
        #expect(throws: VaultError.notCreated) { try home.vault().unlock(passcode: VaultFixture.passcode) }
        try home.vault().create(passcode: VaultFixture.passcode, cost: VaultFixture.fastCost)
    }

    @Test func unlockingAMissingVaultSaysNotCreated() throws {
        let home = try VaultFixture()
        #expect(throws: VaultError.notCreated) { try home.vault().unlock(passcode: "whatever") }
        #expect(throws: VaultError.notCreated) { try home.vault().unlock() }
    }

    @Test func aFileThatIsNotAVaultIsCorrupt() throws {
        let home = try VaultFixture()
        try FileManager.default.createDirectory(at: home.hostDirectory, withIntermediateDirectories: true)
        try Data("this is not a database, just text of some length.....".utf8).write(to: home.vaultFile)
        #expect {
            try home.vault().unlock(passcode: VaultFixture.passcode)
        } throws: { error in
            guard case .corrupt = error as? VaultError else { return false }
            return true
        }
    }
}
