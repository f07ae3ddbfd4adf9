import Foundation
import Testing

@testable import TandemSharedContainer

/// The ways a file in the shared container can be damaged or foreign, and the error each
/// must read as. Records come in two formats: the JSON envelope, and the binary header of
/// sealed records (`SealedRecord`); each damage is applied in the record's own format.
enum DamagedFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case zeroLength, randomBytes, truncated, newerVersion, foreignKind

    var testDescription: String { rawValue }

    /// The damaged bytes standing in for a valid record `original`.
    func bytes(replacing original: Data) -> Data {
        let sealed = original.starts(with: SealedRecord.magic)
        switch self {
        case .zeroLength: return Data()
        case .randomBytes: return Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        case .truncated: return original.prefix(original.count / 2)
        case .newerVersion where sealed:
            var bytes = original
            bytes[bytes.startIndex + SealedRecord.magic.count] = 7
            return bytes
        case .newerVersion: return Self.replacing("\"version\":1", with: "\"version\":7", in: original)
        case .foreignKind where sealed:
            // The header again, with the kind prefixed by "x".
            let kindLength = Int(original[original.startIndex + SealedRecord.magic.count + 1])
            let header = SealedRecord.magic.count + 2
            var bytes = Data(original.prefix(header))
            bytes[bytes.startIndex + header - 1] = UInt8(kindLength + 1)
            bytes.append(UInt8(ascii: "x"))
            bytes.append(original.dropFirst(header))
            return bytes
        case .foreignKind: return Self.replacing("\"kind\":\"", with: "\"kind\":\"x", in: original)
        }
    }

    /// What reading such a record of `kind` at `path` throws; `sealed` for a sealed record,
    /// whose header survives a cut in half (the box then does not open).
    func expectedError(path: String, kind: String, sealed: Bool = false) -> SharedContainerError {
        switch self {
        case .zeroLength: .corrupt(path: path, reason: "the file is empty")
        case .truncated where sealed: .undecryptable(path: path)
        case .randomBytes, .truncated: .corrupt(path: path, reason: "not a Tandem shared record")
        case .newerVersion: .unsupportedVersion(path: path, version: 7)
        case .foreignKind: .foreignRecord(path: path, kind: "x\(kind)")
        }
    }

    private static func replacing(_ target: String, with replacement: String, in data: Data) -> Data {
        Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: target, with: replacement).utf8)
    }
}
