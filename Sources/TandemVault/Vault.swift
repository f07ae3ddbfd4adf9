import Crypto
import Foundation
import Logging
import Synchronization

/// The host app's encrypted key-value store, opened by the user's passcode in the app and by
/// the paired access key (SPAK) for extension requests.
///
/// A vault is one SQLite file in the host's private directory plus a few secrets in the host's
/// ``SecretStorage``. Every item is sealed under a random data key (DEK); the DEK is stored only
/// wrapped, once per way in: by the passcode (scrypt, mixed with a device secret), or without
/// a passcode by the device secret alone, and — once extension access is enabled — by the
/// SPAK, whose two shares live apart. Changing the passcode or rotating the SPAK rewraps the
/// DEK in one transaction; items are never re-encrypted.
///
/// ```swift
/// let vault = Vault(directory: privateDirectory, secrets: KeychainSecretStorage(service: "com.example.vault"))
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

    private let secrets: any SecretStorage
    private let keys: SecretKeys
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var database: VaultDatabase?
        var session: Session?
    }

    /// The keys of an unlocked vault. Dropping it releases (and zeroes) them.
    private struct Session {
        var dataKey: DataKey
        var generation: UInt64
        /// Whether this session already raised the generation (done once, at its first change).
        var bumped = false
    }

    /// Describes a vault; nothing is read or written until the first operation.
    ///
    /// - Parameters:
    ///   - directory: The host's private directory for the vault file (never the shared one).
    ///   - secrets: The host's private secret storage (keychain on Apple platforms).
    ///   - name: Distinguishes several vaults in one directory and one storage.
    ///   - logger: Receives events such as "unlocked via paired key"; never secrets.
    ///   - clock: The current date; tests pass their own to check delays and lockouts.
    public init(
        directory: URL,
        secrets: any SecretStorage,
        name: String = "vault",
        logger: Logger = Logger(label: "tandem.vault"),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.secrets = secrets
        self.name = name
        self.keys = SecretKeys(vaultName: name)
        self.logger = logger
        self.now = clock
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
            // A file without a header is what a crash during an earlier creation leaves.
            do throws(VaultError) {
                _ = try database(&state).header()
                throw VaultError.alreadyExists
            } catch .notCreated {
                try removeFiles(&state)
            }
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let deviceSecret = try loadOrCreateDeviceSecret()
        let dataKey = DataKey.generate(storeID: Data.random(count: 16))
        let slot = try ownerSlot(dataKey, deviceSecret)
        if let policy { try savePolicy(policy) } else { try secrets.removeData(forKey: keys.policy) }
        try secrets.removeData(forKey: keys.attempts)
        try secrets.removeData(forKey: keys.primaryShares)

        let database = try VaultDatabase(url: fileURL, create: true)
        state.database = database
        let generation: UInt64 = 1
        let sealedGeneration = try dataKey.sealGeneration(generation)
        try database.durableWrite { writer in
            try writer.setMeta("store-id", dataKey.storeID)
            try writer.setMeta("format-version", Data([DataKey.formatVersion]))
            try writer.setMeta("generation", sealedGeneration)
            try writer.putSlot(slot)
            // The header goes last: a file without it is an unfinished creation.
            try writer.setMeta("mode", Data(mode.rawValue.utf8))
        }
        try secrets.set(GenerationRecord(storeID: dataKey.storeID, generation: generation).serialized, forKey: keys.generation)
        state.session = Session(dataKey: dataKey, generation: generation, bumped: true)
    }

    // MARK: - Unlocking

    /// Opens a passcode-protected vault.
    ///
    /// Each attempt counts against the policy before the passcode is checked, so killing the
    /// app during an attempt does not give a free guess; a correct passcode resets the count.
    ///
    /// - Throws: ``VaultError/wrongPasscode(remainingAttempts:)``, ``VaultError/throttled(until:)``,
    ///   ``VaultError/lockedOut(until:)``, ``VaultError/wiped``, ``VaultError/rolledBack``,
    ///   ``VaultError/noPasscodeSet``, ``VaultError/notCreated``.
    public func unlock(passcode: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            let database = try database(&state)
            let dataKey = try verifyPasscode(passcode, database: database, state: &state)
            state.session = try openSession(dataKey, database: database)
        }
        logger.info("vault unlocked", metadata: ["vault": "\(name)", "via": "passcode"])
    }

    /// Opens a vault created with ``createWithoutPasscode()``.
    ///
    /// - Throws: ``VaultError/passcodeRequired`` for a passcode vault, ``VaultError/rolledBack``,
    ///   ``VaultError/tampered(_:)``, ``VaultError/notCreated``.
    public func unlock() throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            let database = try database(&state)
            let header = try database.header()
            guard header.mode == .device else { throw .passcodeRequired }
            guard let slot = try database.slot(id: "device") else { throw .corrupt("the device key slot is missing") }
            let kek = KeyEncryptionKey.device(deviceSecret: try existingDeviceSecret(), storeID: header.storeID)
            guard let dataKey = slot.unwrap(with: kek, storeID: header.storeID) else { throw .tampered("key slot device") }
            state.session = try openSession(dataKey, database: database)
        }
        logger.info("vault unlocked", metadata: ["vault": "\(name)", "via": "device"])
    }

    /// Opens the vault with an extension's auxiliary share, combined with the primary share
    /// held in the host's secret storage. No key derivation: this takes microseconds.
    ///
    /// - Parameter auxiliaryShare: The share sent with an extension's request.
    /// - Throws: ``VaultError/wrongPairedKey`` for a wrong, damaged or rotated-away share,
    ///   ``VaultError/rolledBack``, ``VaultError/notCreated``.
    public func unlock(pairedKey auxiliaryShare: AuxiliaryShare) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            let database = try database(&state)
            let header = try database.header()
            guard let slot = try database.slot(id: KeySlot.pairedID(keyID: auxiliaryShare.keyID)),
                var primary = try PrimaryShares.load(from: secrets, key: keys.primaryShares)[auxiliaryShare.keyID]
            else { throw .wrongPairedKey }
            defer { primary.resetBytes(in: 0..<primary.count) }
            let spak = SymmetricKey(data: Self.xor(auxiliaryShare.bytes, primary))
            let kek = KeyEncryptionKey.paired(spak: spak, storeID: header.storeID)
            guard let dataKey = slot.unwrap(with: kek, storeID: header.storeID) else { throw .wrongPairedKey }
            state.session = try openSession(dataKey, database: database)
        }
        logger.debug("vault unlocked", metadata: ["vault": "\(name)", "via": "pairedKey"])
    }

    /// Forgets the keys; reads and writes throw ``VaultError/locked`` until the next unlock.
    public func lock() {
        state.withLock { $0.session = nil }
    }

    /// Whether this instance holds the keys.
    public var isUnlocked: Bool { state.withLock { $0.session != nil } }

    // MARK: - Items

    /// The raw bytes stored under `key`, or `nil` when there are none.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/tampered(_:)`` when the stored item was
    ///   modified (other items still read).
    public func data(forKey key: String) throws(VaultError) -> Data? {
        try state.withLock { state throws(VaultError) in
            guard let session = state.session, let database = state.database else { throw .locked }
            let id = session.dataKey.itemID(for: key)
            guard let sealed = try database.sealedItem(id: id) else { return nil }
            return try session.dataKey.open(sealed, itemID: id, name: key)
        }
    }

    /// The id under which the item `key` is stored (HMAC of the name); for diagnostics and tests.
    func storedID(forKey key: String) throws(VaultError) -> Data {
        try state.withLock { state throws(VaultError) in
            guard let session = state.session else { throw .locked }
            return session.dataKey.itemID(for: key)
        }
    }

    /// Stores raw bytes under `key`, replacing any previous value.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/storage(_:)``.
    public func set(_ data: Data, forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard var session = state.session, let database = state.database else { throw .locked }
            let id = session.dataKey.itemID(for: key)
            let sealed = try session.dataKey.seal(data, itemID: id)
            try commit(&session, database: database) { try $0.putItem(id: id, sealed: sealed) }
            state.session = session
        }
    }

    /// The value stored under `key`, decoded from JSON (or returned as is for `Data`).
    ///
    /// ```swift
    /// let profile = try vault.value(Profile.self, forKey: "profile")
    /// ```
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws(VaultError) -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        if let raw = data as? Value, Value.self == Data.self { return raw }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .coding("cannot decode \(Value.self) from item \(key.debugDescription): \(error)")
        }
    }

    /// Stores `value` under `key` as JSON (a `Data` value is stored as is).
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws(VaultError) {
        if let raw = value as? Data { return try set(raw, forKey: key) }
        let data: Data
        do {
            data = try JSONEncoder.sorted.encode(value)
        } catch {
            throw .coding("cannot encode \(Value.self) for item \(key.debugDescription): \(error)")
        }
        try set(data, forKey: key)
    }

    /// Removes the item under `key`; removing a missing item is not an error.
    public func removeValue(forKey key: String) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard var session = state.session, let database = state.database else { throw .locked }
            let id = session.dataKey.itemID(for: key)
            try commit(&session, database: database) { try $0.deleteItem(id: id) }
            state.session = session
        }
    }

    // MARK: - Rewrapping

    /// Replaces the passcode. Only the passcode's key slot changes, in one transaction: a crash
    /// leaves the vault openable with the old passcode or the new one.
    ///
    /// The old passcode is checked like an unlock attempt (it counts against the policy). The
    /// vault stays locked or unlocked as it was.
    ///
    /// - Throws: ``VaultError/policyViolation(_:)`` (checked first),
    ///   ``VaultError/wrongPasscode(remainingAttempts:)`` and the other unlock errors.
    public func changePasscode(old: String, new: String, cost: KeyDerivationCost = .calibrated()) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            let database = try database(&state)
            guard try database.header().mode == .passcode else { throw .noPasscodeSet }
            let violations = try loadPolicy().violations(for: new)
            guard violations.isEmpty else { throw .policyViolation(violations) }
            let dataKey = try verifyPasscode(old, database: database, state: &state)
            var session = if let current = state.session { current } else { try openSession(dataKey, database: database) }
            let parameters = try PasscodeSlotParameters.fresh(cost: cost)
            let kek = try KeyEncryptionKey.passcode(
                new, parameters: parameters, deviceSecret: try existingDeviceSecret(), storeID: dataKey.storeID)
            let slot = try KeySlot.wrap(dataKey, id: "passcode", kind: .passcode, parameters: parameters.encoded, kek: kek)
            try commit(&session, database: database, rewrap: true) { try $0.putSlot(slot) }
            if state.session != nil { state.session = session }
        }
        logger.info("vault passcode changed", metadata: ["vault": "\(name)"])
    }

    /// Lets extensions open the vault: creates a paired access key, wraps the data key under it,
    /// puts the auxiliary share into `shared` (the storage extensions read) and the primary
    /// share into the host's storage. Works on any existing vault, unlocked once, with no
    /// passcode change — so a widget can be added to an app that has already shipped.
    ///
    /// Calling it again rotates the key (see ``rotatePairedKey(shared:)``).
    ///
    /// - Parameter shared: The secret storage shared with the extensions.
    /// - Throws: ``VaultError/locked``.
    public func enableExtensionAccess(shared: any SecretStorage) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            try installPairedKey(shared: shared, state: &state, requireExisting: false)
        }
        logger.info("vault extension access enabled", metadata: ["vault": "\(name)"])
    }

    /// Replaces the paired access key: the extensions' current share stops working and a new
    /// one is put into `shared`. The data key is rewrapped; items are untouched.
    ///
    /// - Throws: ``VaultError/locked``, ``VaultError/extensionAccessNotEnabled``.
    public func rotatePairedKey(shared: any SecretStorage) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            try installPairedKey(shared: shared, state: &state, requireExisting: true)
        }
        logger.info("vault paired key rotated", metadata: ["vault": "\(name)"])
    }

    /// Removes extension access: the paired key slots, the primary share, and the auxiliary
    /// share in `shared`.
    ///
    /// - Throws: ``VaultError/locked``.
    public func disableExtensionAccess(shared: any SecretStorage) throws(VaultError) {
        try state.withLock { state throws(VaultError) in
            guard var session = state.session, let database = state.database else { throw .locked }
            try commit(&session, database: database, rewrap: true) { try $0.deleteSlots(kind: .paired, except: []) }
            state.session = session
            try shared.removeData(forKey: keys.auxiliaryShare)
            try secrets.removeData(forKey: keys.primaryShares)
        }
        logger.info("vault extension access disabled", metadata: ["vault": "\(name)"])
    }

    /// Installs a new paired key in an order that a crash at any step cannot break: the vault
    /// keeps opening with the share the extensions hold at that moment, old or new.
    private func installPairedKey(shared: any SecretStorage, state: inout State, requireExisting: Bool) throws(VaultError) {
        guard var session = state.session, let database = state.database else { throw .locked }
        let current = try? AuxiliaryShare.load(from: shared, vaultName: name)
        if requireExisting && current == nil { throw .extensionAccessNotEnabled }

        var spak = Data.random(count: 32)
        let auxiliary = try AuxiliaryShare(keyID: Data.random(count: 16), bytes: Data.random(count: 32))
        var primary = Self.xor(spak, auxiliary.bytes)
        defer {
            spak.resetBytes(in: 0..<spak.count)
            primary.resetBytes(in: 0..<primary.count)
        }
        let kek = KeyEncryptionKey.paired(spak: SymmetricKey(data: spak), storeID: session.dataKey.storeID)
        let newID = KeySlot.pairedID(keyID: auxiliary.keyID)
        let slot = try KeySlot.wrap(session.dataKey, id: newID, kind: .paired, parameters: Data(), kek: kek)
        let currentIDs: Set<String> = current.map { [KeySlot.pairedID(keyID: $0.keyID)] } ?? []

        // 1. The host learns the new primary share (keeping the current one).
        var primaries = try PrimaryShares.load(from: secrets, key: keys.primaryShares)
            .keeping(Set(current.map { [$0.keyID] } ?? []))
        primaries[auxiliary.keyID] = primary
        try secrets.set(primaries.serialized, forKey: keys.primaryShares)
        // 2. The vault gets the new slot beside the current one; leftovers of crashed rotations go.
        try commit(&session, database: database, rewrap: true) { writer in
            try writer.deleteSlots(kind: .paired, except: currentIDs)
            try writer.putSlot(slot)
        }
        state.session = session
        // 3. Extensions switch to the new share: the one atomic step they can observe.
        try shared.set(auxiliary.serialized, forKey: keys.auxiliaryShare)
        // 4. The old way in is removed from the vault and from the host.
        try database.write { try $0.deleteSlots(kind: .paired, except: [newID]) }
        try secrets.set(primaries.keeping([auxiliary.keyID]).serialized, forKey: keys.primaryShares)
    }

    // MARK: - Status and destruction

    /// The vault's state, readable while it is locked.
    public func status() throws(VaultError) -> VaultStatus {
        try state.withLock { state throws(VaultError) in
            let database: VaultDatabase
            do throws(VaultError) {
                database = try self.database(&state)
            } catch .notCreated {
                return VaultStatus(
                    exists: false, protection: nil, isUnlocked: false, extensionAccessEnabled: false,
                    failedAttempts: 0, remainingAttempts: nil, nextAttemptAllowedAt: nil)
            }
            let header = try database.header()
            let paired = try !database.pairedSlotIDs().isEmpty
            guard header.mode == .passcode else {
                return VaultStatus(
                    exists: true, protection: .deviceOnly, isUnlocked: state.session != nil,
                    extensionAccessEnabled: paired, failedAttempts: 0, remainingAttempts: nil, nextAttemptAllowedAt: nil)
            }
            let policy = try loadPolicy()
            let record = try AttemptRecord.load(from: secrets, key: keys.attempts)
            let failures = min(record.failures, policy.maximumAttempts - 1)
            let next = [record.lockedUntil, record.retryAllowedAt].compactMap { $0 }.filter { $0 > now() }.max()
            return VaultStatus(
                exists: true, protection: .passcode, isUnlocked: state.session != nil,
                extensionAccessEnabled: paired, failedAttempts: failures,
                remainingAttempts: policy.maximumAttempts - failures, nextAttemptAllowedAt: next)
        }
    }

    /// Deletes the vault file and the host's secrets for it. The extensions' share becomes
    /// useless (its primary half is gone); call ``disableExtensionAccess(shared:)`` first to
    /// remove it as well.
    public func destroy() throws(VaultError) {
        try state.withLock { state throws(VaultError) in try destroy(&state) }
        logger.notice("vault destroyed", metadata: ["vault": "\(name)"])
    }

    private func destroy(_ state: inout State) throws(VaultError) {
        state.session = nil
        // Secrets first: without the device secret and the primary share, a file left behind
        // by a failed deletion can never be opened again.
        for key in [keys.deviceSecret, keys.primaryShares, keys.generation, keys.attempts, keys.policy] {
            try secrets.removeData(forKey: key)
        }
        try removeFiles(&state)
    }

    private func removeFiles(_ state: inout State) throws(VaultError) {
        if let database = state.database {
            try? database.queue.close()
            state.database = nil
        }
        for suffix in ["", "-wal", "-shm"] {
            let path = fileURL.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw .storage("cannot delete \(path): \(error.localizedDescription)")
            }
        }
    }

    // MARK: - Internals

    private func database(_ state: inout State) throws(VaultError) -> VaultDatabase {
        if let database = state.database { return database }
        let database = try VaultDatabase(url: fileURL, create: false)
        state.database = database
        return database
    }

    /// Checks a passcode under the policy's attempt rules and returns the data key.
    private func verifyPasscode(_ passcode: String, database: VaultDatabase, state: inout State) throws(VaultError) -> DataKey {
        let header = try database.header()
        guard header.mode == .passcode else { throw .noPasscodeSet }
        let policy = try loadPolicy()
        var record = try AttemptRecord.load(from: secrets, key: keys.attempts)
        record.failures = min(record.failures, policy.maximumAttempts - 1)
        let started = now()
        if let until = record.lockedUntil, until > started { throw .lockedOut(until: until) }
        if let until = record.retryAllowedAt, until > started { throw .throttled(until: until) }
        guard let slot = try database.slot(id: "passcode") else { throw .corrupt("the passcode key slot is missing") }
        let parameters = try PasscodeSlotParameters(encoded: slot.parameters)
        let deviceSecret = try existingDeviceSecret()

        // Count the attempt before checking it: a process killed mid-check has still used it.
        record.failures += 1
        record.lockedUntil = nil
        record.retryAllowedAt = nil
        try record.save(to: secrets, key: keys.attempts)

        let kek = try KeyEncryptionKey.passcode(passcode, parameters: parameters, deviceSecret: deviceSecret, storeID: header.storeID)
        if let dataKey = slot.unwrap(with: kek, storeID: header.storeID) {
            try AttemptRecord().save(to: secrets, key: keys.attempts)
            return dataKey
        }
        let failedAt = now()
        logger.notice("vault wrong passcode", metadata: ["vault": "\(name)", "failures": "\(record.failures)"])
        if record.failures >= policy.maximumAttempts {
            switch policy.onLimit {
            case .lock(let seconds):
                let until = failedAt.addingTimeInterval(seconds)
                try AttemptRecord(failures: 0, lockedUntil: until).save(to: secrets, key: keys.attempts)
                throw .lockedOut(until: until)
            case .wipe:
                try destroy(&state)
                logger.notice("vault wiped after too many wrong passcodes", metadata: ["vault": "\(name)"])
                throw .wiped
            }
        }
        let delay = policy.delay(afterFailures: record.failures)
        if delay > 0 {
            record.retryAllowedAt = failedAt.addingTimeInterval(delay)
            try record.save(to: secrets, key: keys.attempts)
        }
        throw .wrongPasscode(remainingAttempts: policy.maximumAttempts - record.failures)
    }

    /// Checks the vault's generation against this device's record and starts a session.
    private func openSession(_ dataKey: DataKey, database: VaultDatabase) throws(VaultError) -> Session {
        guard let sealed = try database.sealedGeneration() else { throw .corrupt("the generation record is missing") }
        let generation = try dataKey.openGeneration(sealed)
        let recorded = try secrets.data(forKey: keys.generation).flatMap(GenerationRecord.init(serialized:))
        if let recorded {
            guard recorded.storeID == dataKey.storeID, generation >= recorded.generation else {
                logger.warning("vault file is older than this device's record", metadata: ["vault": "\(name)"])
                throw .rolledBack
            }
        }
        if recorded?.generation != generation {
            try secrets.set(GenerationRecord(storeID: dataKey.storeID, generation: generation).serialized, forKey: keys.generation)
        }
        return Session(dataKey: dataKey, generation: generation)
    }

    /// Runs a write. The first change of a session, and every rewrap, also raises the
    /// generation: durably inside the vault first, then in the device's record.
    private func commit(
        _ session: inout Session, database: VaultDatabase, rewrap: Bool = false,
        _ body: (VaultDatabase.Writer) throws -> Void
    ) throws(VaultError) {
        guard rewrap || !session.bumped else { return try database.write(body) }
        let next = session.generation + 1
        let sealed = try session.dataKey.sealGeneration(next)
        try database.durableWrite { writer in
            try body(writer)
            try writer.setMeta("generation", sealed)
        }
        session.generation = next
        session.bumped = true
        do {
            try secrets.set(GenerationRecord(storeID: session.dataKey.storeID, generation: next).serialized, forKey: keys.generation)
        } catch {
            // The change is committed; the next unlock sees the vault ahead of the record and
            // repairs it. Failing here would report a committed write as failed.
            logger.warning("vault generation record not updated", metadata: ["vault": "\(name)", "error": "\(error)"])
        }
    }

    private func loadOrCreateDeviceSecret() throws(VaultError) -> Data {
        if let existing = try secrets.data(forKey: keys.deviceSecret), existing.count == 32 { return existing }
        let secret = Data.random(count: 32)
        try secrets.set(secret, forKey: keys.deviceSecret)
        return secret
    }

    private func existingDeviceSecret() throws(VaultError) -> Data {
        guard let secret = try secrets.data(forKey: keys.deviceSecret), secret.count == 32 else {
            throw .corrupt("the device secret is missing: this vault was made on another device or its secrets were removed")
        }
        return secret
    }

    private func loadPolicy() throws(VaultError) -> PasscodePolicy {
        guard let data = try secrets.data(forKey: keys.policy) else { return .default }
        do {
            return try JSONDecoder().decode(PasscodePolicy.self, from: data)
        } catch {
            throw .secretStorage("the stored passcode policy is damaged")
        }
    }

    private func savePolicy(_ policy: PasscodePolicy) throws(VaultError) {
        do {
            try secrets.set(try JSONEncoder.sorted.encode(policy), forKey: keys.policy)
        } catch let error as VaultError {
            throw error
        } catch {
            throw .coding("\(error)")
        }
    }

    private static func xor(_ lhs: Data, _ rhs: Data) -> Data {
        Data(zip(lhs, rhs).map { $0 ^ $1 })
    }
}
