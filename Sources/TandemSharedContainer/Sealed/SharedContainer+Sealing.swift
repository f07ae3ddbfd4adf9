import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sealing and opening records: a short header (format, version, kind; see `SealedRecord`) before an AES-GCM
/// box. The header lets a reader tell a foreign or newer file from a damaged one; the box's
/// associated data binds kind, path and format version, so a sealed record moved to another
/// path, relabelled or downgraded does not open.
extension SharedContainer {
    /// Seals under `symmetricKey` (a sealed-record key, or the shared sealing key of requests and events); returns the bytes
    /// written.
    @discardableResult
    func writeSealed(
        _ plaintext: Data, kind: String, to path: String, symmetricKey: SymmetricKey, durability: RecordDurability = .durable
    ) throws(SharedContainerError) -> Data {
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
        try write(record, kind: kind, to: path, durability: durability)
        return record
    }

    /// Seals `value` as JSON (see ``writeSealed(_:kind:to:symmetricKey:durability:)``); returns the bytes
    /// written.
    @discardableResult
    func writeSealed<Value: Encodable>(
        value: Value, kind: String, to path: String, symmetricKey: SymmetricKey, durability: RecordDurability = .durable
    ) throws(SharedContainerError) -> Data {
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
    func readSealed(kind: String, from path: String, symmetricKey: SymmetricKey) throws(SharedContainerError) -> Data? {
        try Self.validate(path: path)
        guard let record = try contents(of: path, kind: kind) else { return nil }
        return try openSealed(record, kind: kind, path: path, symmetricKey: symmetricKey)
    }

    /// The plaintext of the sealed record `record` read from `path`.
    func openSealed(_ record: Data, kind: String, path: String, symmetricKey: SymmetricKey) throws(SharedContainerError) -> Data {
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
    func decodeSealed<Value: Decodable>(_ type: Value.Type, from plaintext: Data, kind: String, path: String) throws(SharedContainerError) -> Value {
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
    static func validate(path: String) throws(SharedContainerError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty else { throw .invalidName(path) }
        for component in components {
            do throws(SharedContainerError) {
                try validate(String(component))
            } catch {
                throw .invalidName(path)
            }
        }
    }
}

