import Foundation
import GRDB
import TandemPlatform
import Testing

@testable import TandemVault

@Suite("Extension access")
struct ExtensionAccessTests {
    @Test func enablingOnAReleasedVaultNeedsOneUnlockAndNoPasscodeChange() throws {
        let home = try VaultFixture()
        // Version 1 of the app: a vault with data, no widget, no paired key.
        do {
            let vault = try home.createdVault()
            try vault.set(Data("refresh".utf8), forKey: "refresh-token")
            #expect(try vault.status().extensionAccessEnabled == false)
        }
        let passcodeSlotBefore = try passcodeSlot(home)

        // Version 2 adds a widget: the user unlocks once, as every day, and that is all.
        let vault = home.vault()
        try vault.unlock(passcode: VaultFixture.passcode)
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        #expect(try vault.status().extensionAccessEnabled)
        #expect(try passcodeSlot(home) == passcodeSlotBefore)

        vault.lock()
        try vault.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
        #expect(try vault.data(forKey: "refresh-token") == Data("refresh".utf8))
        vault.lock()
        try vault.unlock(passcode: VaultFixture.passcode)
        #expect(try vault.data(forKey: "refresh-token") == Data("refresh".utf8))
    }

    @Test func enablingAgainWhileItWorksKeepsTheExtensionsShare() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        #expect(try AuxiliaryShare.load(from: home.sharedSecrets) == share)
        // A share that does not open the vault (left by a reinstall, say) is replaced.
        let stale = try AuxiliaryShare(keyID: Data.random(count: 16), bytes: Data.random(count: 32))
        try home.sharedSecrets.set(stale.serialized, forKey: "vault.auxiliary-share")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let replaced = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        #expect(replaced != share && replaced != stale)
        vault.lock()
        try vault.unlock(pairedKey: replaced)
    }

    @Test func enablingNeedsTheVaultUnlocked() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        vault.lock()
        #expect(throws: VaultError.locked) { try vault.enableExtensionAccess(shared: home.sharedSecrets) }
        #expect(try AuxiliaryShare.load(from: home.sharedSecrets) == nil)
    }

    @Test func aVaultWithoutPasscodeCanBePairedToo() throws {
        let home = try VaultFixture()
        let vault = home.vault()
        try vault.createWithoutPasscode()
        try vault.set(Data("v".utf8), forKey: "k")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        vault.lock()
        try vault.unlock(pairedKey: try #require(try AuxiliaryShare.load(from: home.sharedSecrets)))
        #expect(try vault.data(forKey: "k") == Data("v".utf8))
    }

    @Test func sharesAreKeptApartAndTheWholeKeysAreNeverWritten() throws {
        let home = try VaultFixture()
        let vault = try home.createdVault()
        for index in 0..<10 { try vault.set(Data("value-\(index)".utf8), forKey: "item-\(index)") }
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        try vault.rotatePairedKey(shared: home.sharedSecrets)
        try vault.changePasscode(old: VaultFixture.passcode, new: "second-passcode-2", cost: VaultFixture.fastCost)
        try vault.set(Data("after".utf8), forKey: "after")

        let auxiliary = try #require(try AuxiliaryShare.load(from: home.sharedSecrets))
        let primaries = try PrimaryShares.load(from: home.hostSecrets, key: "vault.primary-shares")
        let primary = try #require(primaries[auxiliary.keyID])
        let spak = Data(zip(auxiliary.bytes, primary).map { $0 ^ $1 })
        vault.lock()
        try vault.unlock(pairedKey: auxiliary)
        let dek = try dataKeyBytes(home, spak: spak)

        let sharedFiles = try home.allFiles(under: home.root.appendingPathComponent("shared"))
        let hostFiles = try home.allFiles(under: home.hostDirectory) + home.allFiles(under: home.root.appendingPathComponent("host-secrets"))
        #expect(!sharedFiles.isEmpty && !hostFiles.isEmpty)
        for (url, bytes) in sharedFiles {
            #expect(!bytes.contains(bytes: primary), "primary share found in shared file \(url.lastPathComponent)")
        }
        for (url, bytes) in hostFiles {
            #expect(!bytes.contains(bytes: auxiliary.bytes), "auxiliary share found in host file \(url.lastPathComponent)")
        }
        for (url, bytes) in sharedFiles + hostFiles {
            #expect(!bytes.contains(bytes: spak), "SPAK found in \(url.lastPathComponent)")
            #expect(!bytes.contains(bytes: dek), "data key found in \(url.lastPathComponent)")
            #expect(!bytes.contains(bytes: Data("second-passcode-2".utf8)), "passcode found in \(url.lastPathComponent)")
            #expect(!bytes.contains(bytes: Data("value-3".utf8)), "plaintext value found in \(url.lastPathComponent)")
            #expect(!bytes.contains(bytes: Data("item-3".utf8)), "item name found in \(url.lastPathComponent)")
        }
    }

    private func passcodeSlot(_ home: VaultFixture) throws -> Row? {
        try home.rawDatabase().read { db in try Row.fetchOne(db, sql: "SELECT * FROM vault_keyslot WHERE id = 'passcode'") }
    }

    /// Unwraps the data key from the paired slot with the test's own reconstruction of the SPAK,
    /// proving the scan looks for the real key.
    private func dataKeyBytes(_ home: VaultFixture, spak: Data) throws -> Data {
        let database = try VaultDatabase(url: home.vaultFile, create: false)
        let header = try database.header()
        let slotID = try #require(try database.pairedSlotIDs().first)
        let slot = try #require(try database.slot(id: slotID))
        let kek = KeyEncryptionKey.paired(spak: .init(data: spak), storeID: header.storeID)
        let dataKey = try #require(slot.unwrap(with: kek, storeID: header.storeID))
        return dataKey.key.withUnsafeBytes { Data($0) }
    }
}
