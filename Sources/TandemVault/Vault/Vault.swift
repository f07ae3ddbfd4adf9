import Crypto
import Foundation
import Logging
import TandemPlatform

/// The host app's encrypted key-value store, opened by the user's passcode in the app and by
/// the paired access key (SPAK) for extension requests.
///
/// A vault is one SQLite file in the host's private directory plus a few secrets in the host's
/// `SecretStorage`. Every item is sealed under a random data key (DEK); the DEK is stored only
/// wrapped, once per way in: by the passcode (scrypt, mixed with a device secret), or without
/// a passcode by the device secret alone, and — once extension access is enabled — by the
/// SPAK, whose two shares live apart. Changing the passcode or rotating the SPAK rewraps the
/// DEK in one transaction; items are never re-encrypted.
///
/// ```swift
/// let vault = Vault(directory: privateDirectory, secrets: hostSecrets)
/// try vault.create(passcode: "correct horse", policy: .default)
/// try vault.set(refreshToken, forKey: "refresh-token")
/// try vault.enableExtensionAccess(shared: sharedSecrets)
/// vault.lock()
///
/// // Later, in the background, with the share an extension sent:
/// try vault.unlock(pairedKey: share)
/// let token = try vault.data(forKey: "refresh-token")
/// ```
///
/// A `Vault` is safe to use from several threads; operations run one at a time. Use one
/// instance per vault file in a process.
public final class Vault: Sendable {
    /// The directory that holds the vault file.
    public let directory: URL
    /// The vault's name: its file is `<name>.sqlite` and its secrets are prefixed with it.
    public let name: String
    /// The vault file.
    public var fileURL: URL { directory.appendingPathComponent("\(name).sqlite", isDirectory: false) }

    let secrets: any SecretStorage
    /// The host's private secret storage the vault keeps its secrets in (its keychain group on
    /// Apple platforms): the host keeps its other device-bound secrets, such as its DPoP key,
    /// beside them.
    public var secretStorage: any SecretStorage { secrets }
    /// Where the biometric slot's secret lives; `nil` when the app offers no biometric unlock.
    let biometrics: (any BiometricSecretStore)?
    let keys: SecretKeys
    let clock: any WallClock
    let logger: Logger
    let state = Locked(State())

    struct State {
        var database: VaultDatabase?
        var session: Session?
    }

    /// The keys of an unlocked vault. Dropping it releases (and zeroes) them.
    struct Session {
        var dataKey: DataKey
        var generation: UInt64
        /// Whether this session already raised the generation (done at its first change).
        var bumped = false
        /// Changes made since the generation was last raised; ``Vault/lock()`` raises it again.
        var dirty = false
        /// Whether this session checked the stored items against the item-set digest.
        var itemsVerified = false
        /// The item-set record as this session last read or wrote it.
        var itemSet: ItemSetRecord.Cached?
        /// Every stored item's item-set tag, from the check of the item set on.
        var tags: ItemTagCache?
        /// The ids of the names used so far.
        var ids = ItemIDCache()

        /// The stored id of the item called `name`.
        func itemID(for name: String) -> Data { ids.id(for: name, dataKey: dataKey) }
    }

    /// Describes a vault; nothing is read or written until the first operation.
    ///
    /// - Parameters:
    ///   - directory: The host's private directory for the vault file (never the shared one).
    ///   - secrets: The host's private secret storage (keychain on Apple platforms).
    ///   - name: Distinguishes several vaults in one directory and one storage.
    ///   - biometrics: Where Face ID or Touch ID unlock keeps its secret
    ///     (``KeychainBiometricSecretStore`` on a phone); `nil` when the app offers no biometric unlock.
    ///   - logger: Receives events such as "unlocked via paired key"; never secrets.
    ///   - clock: The time passcode delays and lockouts are judged by; tests pass one they move.
    public init(
        directory: URL,
        secrets: any SecretStorage,
        name: String = "vault",
        biometrics: (any BiometricSecretStore)? = nil,
        logger: Logger = Logger(label: "tandem.vault"),
        clock: any WallClock = SystemClock()
    ) {
        self.directory = directory
        self.secrets = secrets
        self.biometrics = biometrics
        self.name = name
        self.keys = SecretKeys(vaultName: name)
        self.logger = logger
        self.clock = clock
    }

    // MARK: - Creating

    /// Creates a vault protected by `passcode` and leaves it unlocked.
    ///
    /// - Parameters:
    ///   - passcode: The user's passcode; it must satisfy `policy`.
    ///   - policy: Passcode rules and what happens after too many wrong attempts.
    ///   - cost: The scrypt cost; by default calibrated to take at least 100 ms on this device.
    /// - Throws: ``VaultError/policyViolation(_:)``, ``VaultError/alreadyExists``.
    public func create(
        passcode: String, policy: PasscodePolicy = .default, cost: KeyDerivationCost = .calibrated()
    ) throws(VaultError) {
        let violations = policy.violations(for: passcode)
        guard violations.isEmpty else { throw .policyViolation(violations) }
        try state.withLock { state throws(VaultError) in
            try create(in: &state, mode: .passcode, policy: policy) { dataKey, deviceSecret throws(VaultError) in
                let parameters = try PasscodeSlotParameters.fresh(cost: cost)
                let kek = try KeyEncryptionKey.passcode(
                    passcode, parameters: parameters, deviceSecret: deviceSecret, storeID: dataKey.storeID)
                return try KeySlot.wrap(dataKey, id: "passcode", kind: .passcode, parameters: parameters.encoded, kek: kek)
            }
        }
        logger.info("vault created", metadata: ["vault": "\(name)", "protection": "passcode"])
    }

    /// Creates a vault that opens without asking the user (its data key is wrapped by the
    /// device secret alone) and leaves it unlocked. Use ``unlock()`` to open it later.
    ///
    /// - Throws: ``VaultError/alreadyExists``.
    public func createWithoutPasscode() throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            try create(in: &state, mode: .device, policy: nil) { dataKey, deviceSecret throws(VaultError) in
                let kek = KeyEncryptionKey.device(deviceSecret: deviceSecret, storeID: dataKey.storeID)
                return try KeySlot.wrap(dataKey, id: "device", kind: .device, parameters: Data(), kek: kek)
            }
        }
        logger.info("vault created", metadata: ["vault": "\(name)", "protection": "deviceOnly"])
    }

    private func create(
        in state: inout State, mode: VaultDatabase.Mode, policy: PasscodePolicy?,
        ownerSlot: (DataKey, Data) throws(VaultError) -> KeySlot
    ) throws(VaultError) {
        if FileManager.default.fileExists(atPath: fileURL.path) {
            do throws(VaultError) {
                _ = try database(&state).header()
                // A vault whose device secret is gone can never open again: what an interrupted
                // destroy or a backup restored onto another device leaves. Anything else stays.
                guard try secrets.read(keys.deviceSecret) == nil else { throw VaultError.alreadyExists }
                logger.notice("removing a vault file whose device secret is gone", metadata: ["vault": "\(name)"])
                try removeFiles(&state)
            } catch .notCreated {
                // A file without a header is what a crash during an earlier creation leaves.
                try removeFiles(&state)
            }
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(directory.path): \(error.localizedDescription)")
        }
        // A fresh device secret makes any earlier vault file under this name undecryptable,
        // so putting one back can neither be opened nor serve as a passcode oracle.
        var deviceSecret = Data.random(count: 32)
        defer { deviceSecret.resetBytes(in: 0..<deviceSecret.count) }
        let dataKey = DataKey.generate(storeID: Data.random(count: 16))
        let slot = try ownerSlot(dataKey, deviceSecret)
        for key in [keys.generation, keys.attempts, keys.primaryShares, keys.policy, keys.biometricRevoked] { try secrets.remove(key) }
        try secrets.write(deviceSecret, to: keys.deviceSecret)
        if let policy { try savePolicy(policy) }

        let database = try VaultDatabase(url: fileURL, create: true)
        state.database = database
        let generation: UInt64 = 1
        let sealedGeneration = try dataKey.sealGeneration(generation, slotDigest: KeySlot.digest(of: [slot]))
        let itemSet = ItemSetRecord(generation: generation, sequence: 0, digest: .empty)
        let sealedItemSet = try dataKey.sealItemSet(itemSet)
        let (_, version) = try database.durableWrite { writer in
            try writer.setMeta("store-id", dataKey.storeID)
            try writer.setMeta("format-version", Data([DataKey.formatVersion]))
            try writer.setMeta("generation", sealedGeneration)
            try writer.setMeta(ItemSetRecord.metaKey, sealedItemSet)
            try writer.putSlot(slot)
            // The header goes last: a file without it is an unfinished creation.
            try writer.setMeta("mode", Data(mode.rawValue.utf8))
        }
        try recordGeneration(generation, storeID: dataKey.storeID)
        state.session = Session(
            dataKey: dataKey, generation: generation, bumped: true, itemsVerified: true,
            itemSet: ItemSetRecord.Cached(record: itemSet, dataVersion: version),
            tags: ItemTagCache())
    }

    // MARK: - Shared internals

    func database(_ state: inout State) throws(VaultError) -> VaultDatabase {
        if let database = state.database { return database }
        let database = try VaultDatabase(url: fileURL, create: false)
        state.database = database
        return database
    }

    func existingDeviceSecret() throws(VaultError) -> Data {
        guard let secret = try secrets.read(keys.deviceSecret), secret.count == 32 else {
            throw .corrupt("the device secret is missing: this vault was made on another device or its secrets were removed")
        }
        return secret
    }

    func loadPolicy() throws(VaultError) -> PasscodePolicy {
        guard let data = try secrets.read(keys.policy) else { return .default }
        do {
            return try JSONDecoder().decode(PasscodePolicy.self, from: data)
        } catch {
            throw .secretStorage("the stored passcode policy is damaged")
        }
    }

    func savePolicy(_ policy: PasscodePolicy) throws(VaultError) {
        do {
            try secrets.write(try JSONEncoder.sorted.encode(policy), to: keys.policy)
        } catch let error as VaultError {
            throw error
        } catch {
            throw .coding("\(error)")
        }
    }

    static func xor(_ lhs: Data, _ rhs: Data) -> Data {
        Data(zip(lhs, rhs).map { $0 ^ $1 })
    }
}
