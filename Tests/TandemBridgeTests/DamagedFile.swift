import Foundation
import Testing
@testable import TandemBridge

/// The ways a file in the shared container can be damaged or foreign, and the error each
/// must read as.
enum DamagedFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case zeroLength, randomBytes, truncated, newerVersion, foreignKind

    var testDescription: String { rawValue }

    /// The damaged bytes standing in for a valid record `original`.
    func bytes(replacing original: Data) -> Data {
        switch self {
        case .zeroLength: Data()
        case .randomBytes: Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        case .truncated: original.prefix(original.count / 2)
        case .newerVersion: Self.replacing("\"version\":1", with: "\"version\":7", in: original)
        case .foreignKind: Self.replacing("\"kind\":\"", with: "\"kind\":\"x", in: original)
        }
    }

    /// What reading such a record of `kind` at `path` throws.
    func expectedError(path: String, kind: String) -> BridgeError {
        switch self {
        case .zeroLength: .corrupt(path: path, reason: "the file is empty")
        case .randomBytes, .truncated: .corrupt(path: path, reason: "not a Tandem shared record")
        case .newerVersion: .unsupportedVersion(path: path, version: 7)
        case .foreignKind: .foreignRecord(path: path, kind: "x\(kind)")
        }
    }

    private static func replacing(_ target: String, with replacement: String, in data: Data) -> Data {
        Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: target, with: replacement).utf8)
    }
}
