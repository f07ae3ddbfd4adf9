#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON envelope of the records in the shared container that are not sealed (status,
/// leases, configurations, events): a format marker, a version and the kind of record, so that
/// a reader can tell a damaged, foreign or newer file from a record it understands. Sealed
/// records have a binary header instead (`SealedRecord`); version 1 of theirs was this
/// envelope around the box.
struct SharedRecord<Body: Codable>: Codable {
    static var currentVersion: Int { 1 }

    /// Always `tandem.shared`.
    var format = "tandem.shared"
    var version = SharedRecord.currentVersion
    /// What the body is, such as `status` or `lease`.
    var kind: String
    var body: Body

    init(kind: String, body: Body) {
        self.kind = kind
        self.body = body
    }

    /// The header alone, decoded before the body so that the error names the real problem.
    struct Header: Codable {
        var format: String
        var version: Int
        var kind: String
    }

    static func encode(_ body: Body, kind: String) throws(SharedContainerError) -> Data {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(SharedRecord(kind: kind, body: body))
        } catch {
            throw .unencodable("a \(kind) record: \(error)")
        }
    }

    static func decode(_ data: Data, kind: String, path: String) throws(SharedContainerError) -> Body {
        let decoder = JSONDecoder()
        guard !data.isEmpty else { throw .corrupt(path: path, reason: "the file is empty") }
        // A sound record of the expected kind, the common case, costs one parse; anything else
        // is parsed header first, so that the error names the real problem.
        if let record = try? decoder.decode(SharedRecord.self, from: data),
            record.format == "tandem.shared", record.version == currentVersion, record.kind == kind
        {
            return record.body
        }
        guard let header = try? decoder.decode(Header.self, from: data), header.format == "tandem.shared" else {
            throw .corrupt(path: path, reason: "not a Tandem shared record")
        }
        guard header.version == currentVersion else { throw .unsupportedVersion(path: path, version: header.version) }
        guard header.kind == kind else { throw .foreignRecord(path: path, kind: header.kind) }
        do {
            return try decoder.decode(SharedRecord.self, from: data).body
        } catch {
            throw .corrupt(path: path, reason: "the \(kind) body does not decode")
        }
    }
}
