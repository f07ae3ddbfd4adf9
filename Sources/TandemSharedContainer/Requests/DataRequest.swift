import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// An extension's request for data, waiting in the container's `requests/` folder until the
/// host fulfils it.
///
/// A request is identified by its kind and key (for example `entities` and a destination +
/// entity set): its file name is a digest of both, so asking twice for the same data leaves
/// one request, the newer. The whole record, including the auxiliary share it carries, is
/// sealed under the ``SharedSealingKey``.
///
/// ```swift
/// struct EntityKey: Codable { var destination: String; var entitySet: String }
/// // In the widget:
/// try container.requests.submit(kind: "entities", key: EntityKey(destination: "eu", entitySet: "orders"),
///                       share: share, sealingKey: sealingKey)
/// // In the host:
/// for request in try container.requests.pending(sealingKey: sealingKey) {
///     let key = try request.decodeKey(EntityKey.self)
/// }
/// ```
public struct DataRequest: Sendable {
    /// The digest of kind and key; also names the request's snapshot.
    public let id: String
    /// What is asked for, such as `entities`.
    public let kind: String
    /// The key as canonical JSON (sorted keys); decode it with ``decodeKey(_:)``.
    public let key: Data
    /// When the extension wrote the request.
    public let createdAt: Date
    /// How many times in a row the extension has asked for this data without the host answering:
    /// 1 for a first request, one more than the request it replaced otherwise (at most
    /// ``maximumAttempt``). Kept in the sealed file, so a widget whose process iOS discarded
    /// between two reloads still backs off; the host's completion ends the run.
    public let attempt: Int
    /// The extension's auxiliary share, which opens the vault with the host's primary share.
    package let share: AuxiliaryShare
    /// The request's file as read or written, to remove exactly this request and not a newer one.
    let record: Data

    /// The key, decoded as the type the extension encoded.
    ///
    /// - Throws: ``SharedContainerError/corrupt(path:reason:)`` when it is not a `Key`.
    public func decodeKey<Key: Decodable>(_ type: Key.Type = Key.self) throws(SharedContainerError) -> Key {
        do {
            return try JSONDecoder().decode(Key.self, from: key)
        } catch {
            throw .corrupt(path: Self.path(id: id), reason: "the request key is not a \(Key.self)")
        }
    }

    // MARK: - Identity and storage

    /// What is sealed in the request's file.
    struct Body: Codable {
        var kind: String
        var key: Data
        var createdAt: Date
        var share: Data
        /// Absent in files written before it existed: a first request.
        var attempt: Int?
    }

    /// The highest ``attempt`` counted; a longer run of unanswered requests stays at it.
    public static let maximumAttempt = 64

    static let recordKind = "request"

    static func path(id: String) -> String { "requests/\(id).request" }

    /// `key` as canonical JSON: sorted keys, so that equal keys give equal bytes on both sides.
    static func canonicalKey<Key: Encodable>(_ key: Key) throws(SharedContainerError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(key)
        } catch {
            throw .unencodable("a request key of type \(Key.self): \(error)")
        }
    }

    /// The request id of `kind` + `key`: SHA-256 over both, hex.
    static func id(kind: String, canonicalKey: Data) -> String {
        var input = Data(kind.utf8)
        input.append(0)
        input.append(canonicalKey)
        return Hex.encode(SHA256.hash(data: input))
    }
}

extension DataRequest: Equatable {
    /// Two requests are equal when they are the same file: the share is compared only through
    /// the sealed record (never byte by byte in the clear).
    public static func == (lhs: DataRequest, rhs: DataRequest) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.key == rhs.key && lhs.createdAt == rhs.createdAt && lhs.record == rhs.record
    }
}

extension DataRequest: CustomStringConvertible {
    /// Kind, id and age; never the share.
    public var description: String { "DataRequest(\(kind), id: \(id.prefix(12)), createdAt: \(createdAt), attempt: \(attempt))" }
}
