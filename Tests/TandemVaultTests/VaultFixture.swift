import Foundation
import GRDB
import TandemPlatform

@testable import TandemVault

/// A vault home in a fresh temporary directory: the host's private directory and secrets, and
/// the storage shared with extensions, laid out as an app and its widget would have them.
final class VaultFixture {
    let root: URL
    let hostDirectory: URL
    let hostSecrets: FileSecretStorage
    let sharedSecrets: FileSecretStorage
    let clock = TestClock()

    /// Cheap scrypt so that tests with many attempts stay fast; calibration has its own test.
    static let fastCost = KeyDerivationCost.fixed(log2N: 10, r: 8, p: 1)
    static let passcode = "correct-horse-7"

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-vault-\(UUID().uuidString)")
        hostDirectory = root.appendingPathComponent("host")
        hostSecrets = try FileSecretStorage(directory: root.appendingPathComponent("host-secrets"))
        sharedSecrets = try FileSecretStorage(directory: root.appendingPathComponent("shared/secrets"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A new `Vault` instance over this home, as a freshly started process would make.
    func vault(biometrics: (any BiometricSecretStore)? = nil) -> Vault {
        Vault(directory: hostDirectory, secrets: hostSecrets, biometrics: biometrics, clock: clock)
    }

    /// A vault created with ``passcode`` and `policy`, unlocked.
    func createdVault(
        policy: PasscodePolicy = PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100),
        biometrics: (any BiometricSecretStore)? = nil
    ) throws -> Vault {
        let vault = vault(biometrics: biometrics)
        try vault.create(passcode: Self.passcode, policy: policy, cost: Self.fastCost)
        return vault
    }

    /// A vault created with ``passcode`` and `policy`, Face ID enabled through `biometrics`, locked.
    func lockedVaultWithBiometrics(
        _ biometrics: any BiometricSecretStore, policy: PasscodePolicy = PasscodePolicy(maximumAttempts: 100, attemptsBeforeDelay: 100)
    ) throws -> Vault {
        let vault = try createdVault(policy: policy, biometrics: biometrics)
        try vault.enableBiometricUnlock()
        vault.lock()
        return vault
    }

    /// A new instance unlocked with ``passcode``, as the app's next launch would open the vault:
    /// what the file holds, without anything an earlier instance kept in memory.
    func reopenedVault() throws -> Vault {
        let vault = vault()
        try vault.unlock(passcode: Self.passcode)
        return vault
    }

    /// Two instances over one vault, as the app and its background run have them: the first
    /// created it and enabled extension access, the second opened it with the paired key.
    func twoInstances() throws -> (first: Vault, second: Vault) {
        let first = try createdVault()
        try first.enableExtensionAccess(shared: sharedSecrets)
        let second = vault()
        try second.unlock(pairedKey: try pairedShare())
        return (first, second)
    }

    /// The auxiliary share extensions hold now.
    func pairedShare() throws -> AuxiliaryShare {
        guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { throw VaultError.extensionAccessNotEnabled }
        return share
    }

    /// Runs `edit` on the vault file directly, as someone with file access but no key would.
    func editFile(_ edit: (Database) throws -> Void) throws {
        try rawDatabase().write { db in try edit(db) }
    }

    var vaultFile: URL { hostDirectory.appendingPathComponent("vault.sqlite") }

    /// Opens the vault file directly, as an attacker with file access would.
    func rawDatabase() throws -> DatabaseQueue {
        try DatabaseQueue(path: vaultFile.path)
    }

    /// Copies the vault file and its WAL companions aside (the vault must not be mid-write).
    func snapshotFiles(to name: String) throws -> URL {
        let copy = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: vaultFile.path + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(at: source, to: copy.appendingPathComponent("vault.sqlite" + suffix))
        }
        return copy
    }

    /// Puts files saved by ``snapshotFiles(to:)`` back in place of the current vault file.
    func restoreFiles(from copy: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            let target = URL(fileURLWithPath: vaultFile.path + suffix)
            try? FileManager.default.removeItem(at: target)
            let source = copy.appendingPathComponent("vault.sqlite" + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
    }

    /// Every regular file under the home, with its bytes.
    func allFiles(under directory: URL? = nil) throws -> [(URL, Data)] {
        let base = directory ?? root
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [(URL, Data)] = []
        for case let url as URL in enumerator {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files.append((url, try Data(contentsOf: url)))
        }
        return files
    }
}

/// A clock the test moves by hand. (The vault reads the time but never waits, so a sleep here
/// simply moves the clock; TandemVaultTests does not link TandemTestSupport's `ManualClock`.)
final class TestClock: WallClock {
    private let date = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { date.withLock { $0 } }
    func advance(by seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        advance(by: duration.timeInterval)
    }
}

extension Data {
    /// A copy with one bit flipped at `index`.
    func flippingBit(at index: Int, bit: UInt8 = 0x01) -> Data {
        var copy = self
        copy[copy.startIndex + index] ^= bit
        return copy
    }

    func contains(bytes needle: Data) -> Bool { range(of: needle) != nil }
}
