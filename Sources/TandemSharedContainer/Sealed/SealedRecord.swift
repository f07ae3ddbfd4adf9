#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The file format of a sealed record (the grant, requests, snapshots): a short binary header
/// before the AES-GCM box.
///
///     "TNDS" | format version (1 byte) | kind length (1 byte) | kind (UTF-8) | nonce ‖ ciphertext ‖ tag
///
/// Like the JSON envelope of the other records (``SharedRecord``), the header lets a reader
/// tell a foreign, newer-format or damaged file apart. Sealed records were first written in
/// that JSON envelope, with the box in base64 (format version 1); parsing it and decoding the
/// base64 cost a widget more than opening the box itself. Version 1 files still read.
///
/// The version also goes into the box's associated data (see `SharedContainer.sealingContext`),
/// so a box taken out of one format and put into the other does not open.
struct SealedRecord {
    /// `TNDS`: a Tandem sealed record.
    static let magic: [UInt8] = [0x54, 0x4E, 0x44, 0x53]
    /// The version written today.
    static let currentVersion = 2
    /// The first version: the ``SharedRecord`` JSON envelope around the box, in base64. It is
    /// read by `SharedRecord.decode`, so that envelope must keep reading its version 1.
    static let jsonEnvelopeVersion = 1

    /// What the record holds, such as `grant`.
    let kind: String
    /// The format version the record was written in.
    let version: Int
    /// The AES-GCM box, combined (nonce, ciphertext, tag).
    let box: Data

    /// A record of the current version.
    init(kind: String, box: Data) {
        self.kind = kind
        self.version = Self.currentVersion
        self.box = box
    }

    private init(kind: String, version: Int, box: Data) {
        self.kind = kind
        self.version = version
        self.box = box
    }

    /// The bytes of the file.
    func serialized() throws(SharedContainerError) -> Data {
        let kindBytes = Array(kind.utf8)
        guard kindBytes.count <= Int(UInt8.max) else { throw .unencodable("a record kind longer than 255 bytes") }
        var data = Data(capacity: Self.magic.count + 2 + kindBytes.count + box.count)
        data.append(contentsOf: Self.magic)
        data.append(UInt8(version))
        data.append(UInt8(kindBytes.count))
        data.append(contentsOf: kindBytes)
        data.append(box)
        return data
    }

    /// Reads the record in `data`, the file at `path`, which must hold a `kind` record.
    ///
    /// - Throws: ``SharedContainerError/corrupt(path:reason:)`` for an empty, cut or unknown file,
    ///   ``SharedContainerError/unsupportedVersion(path:version:)``, ``SharedContainerError/foreignRecord(path:kind:)``.
    static func parse(_ data: Data, kind: String, path: String) throws(SharedContainerError) -> SealedRecord {
        guard let first = data.first else { throw .corrupt(path: path, reason: "the file is empty") }
        // Written by an earlier version: the JSON envelope.
        if first == UInt8(ascii: "{") {
            let box = try SharedRecord<Data>.decode(data, kind: kind, path: path)
            return SealedRecord(kind: kind, version: jsonEnvelopeVersion, box: box)
        }
        let start = data.startIndex
        guard data.count >= magic.count + 2, data[start..<start + magic.count].elementsEqual(magic) else {
            throw .corrupt(path: path, reason: "not a Tandem shared record")
        }
        let version = Int(data[start + magic.count])
        guard version <= currentVersion else { throw .unsupportedVersion(path: path, version: version) }
        // Version 1 was JSON: a binary header never carries it.
        guard version == currentVersion else { throw .corrupt(path: path, reason: "a binary header of version \(version)") }
        let kindStart = start + magic.count + 2
        let kindEnd = kindStart + Int(data[start + magic.count + 1])
        guard kindEnd > kindStart else { throw .corrupt(path: path, reason: "the header names no kind") }
        guard kindEnd <= data.endIndex else { throw .corrupt(path: path, reason: "the header is cut short") }
        guard let found = String(bytes: data[kindStart..<kindEnd], encoding: .utf8) else {
            throw .corrupt(path: path, reason: "the kind is not UTF-8")
        }
        guard found == kind else { throw .foreignRecord(path: path, kind: found) }
        return SealedRecord(kind: found, version: version, box: Data(data[kindEnd...]))
    }
}
