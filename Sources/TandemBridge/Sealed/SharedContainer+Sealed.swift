import Crypto
import Foundation
import TandemVault

/// Sealed records: a short header (format, version, kind; see `SealedRecord`) before an AES-GCM
/// box. The header lets a reader tell a foreign or newer file from a damaged one; the box's
/// associated data binds kind, path and format version, so a sealed record moved to another
/// path, relabelled or downgraded does not open.
extension SharedContainer {
    /// Seals `plaintext` with AES-GCM under `key` (AAD binds kind + path + format version) behind
    /// the sealed-record header, and writes it atomically at `path`.
    ///
    /// ```swift
    /// let key = ContainerKey(share: share, purpose: .grant)
    /// try container.writeSealed(Data(grantJSON.utf8), kind: "grant", to: "grant", key: key)
    /// let opened = try container.readSealed(kind: "grant", from: "grant", key: key)
    /// ```
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to protect; they never reach the disk unsealed.
    ///   - kind: What the record holds, such as `grant`; a reader asking for another kind gets
    ///     ``BridgeError/foreignRecord(path:kind:)``.
    ///   - path: Where to write, relative to the container (`grant`, `snapshots/<id>.snapshot`);
    ///     each component must be a valid name (`[A-Za-z0-9._-]`, not starting with a dot).
    ///   - key: The key to seal with.
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``.
    public func writeSealed(_ plaintext: Data, kind: String, to path: String, key: ContainerKey) throws(BridgeError) {
        try writeSealed(plaintext, kind: kind, to: path, symmetricKey: key.symmetricKey)
    }

    /// Seals `value`, encoded as JSON, like ``writeSealed(_:kind:to:key:)``; the plaintext is
    /// wiped from memory once sealed.
    ///
    /// - Returns: The sealed bytes written, for a later
    ///   ``readSealed(kind:from:key:ifChangedFrom:)``.
    /// - Throws: ``BridgeError/unencodable(_:)`` when `value` does not encode,
    ///   ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``.
    @discardableResult
    public func writeSealed<Value: Encodable>(value: Value, kind: String, to path: String, key: ContainerKey) throws(BridgeError) -> Data {
        try writeSealed(value: value, kind: kind, to: path, symmetricKey: key.symmetricKey)
    }

    /// The opened plaintext of the sealed record at `path`, or `nil` when there is no file.
    ///
    /// - Parameters:
    ///   - kind: The kind the record was written with.
    ///   - path: Where it was written, relative to the container.
    ///   - key: The key it was sealed with.
    /// - Throws: ``BridgeError/undecryptable(path:)`` for a modified, truncated, moved or
    ///   otherwise-keyed record; ``BridgeError/corrupt(path:reason:)``,
    ///   ``BridgeError/unsupportedVersion(path:version:)``,
    ///   ``BridgeError/foreignRecord(path:kind:)`` for a file that is not such a record at all;
    ///   ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``. Never garbage.
    public func readSealed(kind: String, from path: String, key: ContainerKey) throws(BridgeError) -> Data? {
        try readSealed(kind: kind, from: path, symmetricKey: key.symmetricKey)
    }

    /// Like ``readSealed(kind:from:key:)``, but decrypts and decodes nothing when the file
    /// still holds `sealed`, the bytes the caller opened last time: a reader that keeps what it
    /// decoded pays for a small file read until a writer replaces the record.
    ///
    /// The comparison is on the bytes themselves, not on file times or sizes (which a quick
    /// succession of writes can leave equal): every write seals under a fresh nonce, so equal
    /// bytes are the same write.
    ///
    /// ```swift
    /// switch try container.readSealed(kind: "grant", from: "grant", key: key, ifChangedFrom: cached?.sealed) {
    /// case .missing: cached = nil
    /// case .unchanged: break
    /// case .opened(let plaintext, let sealed): cached = (try decode(plaintext), sealed)
    /// }
    /// ```
    ///
    /// - Throws: As ``readSealed(kind:from:key:)``.
    public func readSealed(kind: String, from path: String, key: ContainerKey, ifChangedFrom sealed: Data?) throws(BridgeError) -> SealedRead {
        try Self.validate(path: path)
        guard let record = try contents(of: path) else { return .missing }
        if record == sealed { return .unchanged }
        return .opened(try openSealed(record, kind: kind, path: path, symmetricKey: key.symmetricKey), sealed: record)
    }

    /// Removes the record at `path` (relative to the container); a missing file is fine.
    ///
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``.
    public func removeRecord(at path: String) throws(BridgeError) {
        try Self.validate(path: path)
        try remove(path)
        AtomicFile.syncDirectory(url(path).deletingLastPathComponent())
    }

    // MARK: - Internals

    /// Seals under any key of the bridge (container keys, the bridge key); returns the bytes
    /// written.
    @discardableResult
    func writeSealed(
        _ plaintext: Data, kind: String, to path: String, symmetricKey: SymmetricKey, durability: RecordDurability = .durable
    ) throws(BridgeError) -> Data {
        try Self.validate(path: path)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                plaintext, using: symmetricKey, authenticating: Self.sealingContext(kind: kind, path: path, version: SealedRecord.currentVersion))
        } catch {
            throw .unencodable("cannot seal a \(kind) record: \(error)")
        }
        // `combined` is nil only for nonces of a non-standard size, which `seal` never makes.
        guard let box = sealed.combined else { throw .unencodable("cannot seal a \(kind) record") }
        let record = try SealedRecord(kind: kind, box: box).serialized()
        try write(record, to: path, durability: durability)
        return record
    }

    /// Seals `value` as JSON (see ``writeSealed(_:kind:to:symmetricKey:)``); returns the bytes
    /// written.
    @discardableResult
    func writeSealed<Value: Encodable>(
        value: Value, kind: String, to path: String, symmetricKey: SymmetricKey, durability: RecordDurability = .durable
    ) throws(BridgeError) -> Data {
        var plaintext: Data
        do {
            plaintext = try JSONEncoder().encode(value)
        } catch {
            throw .unencodable("a \(kind) record: \(error)")
        }
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try writeSealed(plaintext, kind: kind, to: path, symmetricKey: symmetricKey, durability: durability)
    }

    /// Opens what ``writeSealed(_:kind:to:symmetricKey:)`` wrote; `nil` when there is no file.
    func readSealed(kind: String, from path: String, symmetricKey: SymmetricKey) throws(BridgeError) -> Data? {
        try Self.validate(path: path)
        guard let record = try contents(of: path) else { return nil }
        return try openSealed(record, kind: kind, path: path, symmetricKey: symmetricKey)
    }

    /// The plaintext of the sealed record `record` read from `path`.
    func openSealed(_ record: Data, kind: String, path: String, symmetricKey: SymmetricKey) throws(BridgeError) -> Data {
        let parsed = try SealedRecord.parse(record, kind: kind, path: path)
        do {
            let sealed = try AES.GCM.SealedBox(combined: parsed.box)
            return try AES.GCM.open(sealed, using: symmetricKey, authenticating: Self.sealingContext(kind: kind, path: path, version: parsed.version))
        } catch {
            throw .undecryptable(path: path)
        }
    }

    /// Decodes the JSON `plaintext` of a sealed record. It opened, so it was written by a holder
    /// of the key; failing to decode means another version of the SDK wrote it.
    func decodeSealed<Value: Decodable>(_ type: Value.Type, from plaintext: Data, kind: String, path: String) throws(BridgeError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: plaintext)
        } catch {
            throw .corrupt(path: path, reason: "the sealed \(kind) body does not decode")
        }
    }

    /// The associated data of a sealed record of format `version`.
    private static func sealingContext(kind: String, path: String, version: Int) -> Data {
        Data("tandem.sealed\u{0}v\(version)\u{0}\(kind)\u{0}\(path)".utf8)
    }

    /// Checks that `path` is relative and every component of it a valid name.
    static func validate(path: String) throws(BridgeError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty else { throw .invalidName(path) }
        for component in components {
            do throws(BridgeError) {
                try validate(String(component))
            } catch {
                throw .invalidName(path)
            }
        }
    }
}

