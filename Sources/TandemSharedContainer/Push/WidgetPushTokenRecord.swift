#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

extension SharedContainer {
    /// The widgets' push token, handed from the widget extension to the host.
    public var widgetPushToken: WidgetPushTokenRecord { WidgetPushTokenRecord(container: self) }
}

/// The widget extension's WidgetKit push token (iOS 26's `WidgetPushHandler`), on its way to the
/// host: the widgets' grant is read-only, so the host registers the token with the server
/// (`PUT /v1/push/devices/{deviceId}`) under its own grant.
///
/// Sealed under the ``SharedSealingKey``, like data requests: a token in a plain file would tell
/// any process with the App Group where to push, and a forged one would redirect the widgets'
/// updates. Whatever the host reads is checked again: it opened, so a holder of the key wrote it,
/// but its length must still be a push token's (`PushTokenRules`).
///
/// ```swift
/// // In the widget extension's push handler:
/// try container.widgetPushToken.write(pushInfo.token, sealingKey: sealingKey)
/// // In the host, before it registers with the server:
/// if let token = try container.widgetPushToken.read(sealingKey: sealingKey) { … }
/// ```
public struct WidgetPushTokenRecord: Sendable {
    let container: SharedContainer

    /// Where the record lives in the container.
    static let path = "widget-push-token"
    /// The record's kind in its sealed header.
    static let kind = "widget-push-token"
    /// Seals `token` and writes it, replacing the one before.
    ///
    /// - Throws: ``SharedContainerError/unencodable(_:)`` for a token of an impossible length;
    ///   ``SharedContainerError/io(_:)`` when the container cannot be written.
    public func write(_ token: Data, sealingKey: SharedSealingKey) throws(SharedContainerError) {
        guard PushTokenRules.isAcceptable(token) else { throw Self.refusal(of: token) }
        try container.writeSealed(token, kind: Self.kind, to: Self.path, symmetricKey: sealingKey.symmetricKey)
    }

    /// Why `token` cannot be a push token: its length.
    static func refusal(of token: Data) -> SharedContainerError {
        .unencodable("a push token of \(token.count) bytes (\(PushTokenRules.bytes.lowerBound)–\(PushTokenRules.bytes.upperBound) expected)")
    }

    /// The token the widget extension wrote last, or `nil` when it wrote none.
    ///
    /// - Throws: ``SharedContainerError/undecryptable(path:)`` for a record sealed under another
    ///   key or changed; ``SharedContainerError/foreignRecord(path:kind:)`` for another kind of
    ///   record at its path; ``SharedContainerError/corrupt(path:reason:)`` for one that opens
    ///   but holds no push token.
    public func read(sealingKey: SharedSealingKey) throws(SharedContainerError) -> Data? {
        guard let token = try container.readSealed(kind: Self.kind, from: Self.path, symmetricKey: sealingKey.symmetricKey) else {
            return nil
        }
        guard PushTokenRules.isAcceptable(token) else {
            throw .corrupt(path: Self.path, reason: "a push token of \(token.count) bytes")
        }
        return token
    }

    /// What tells the stored record apart from the one before without opening it (its file's
    /// inode and modification time: a token written anew is renamed into place, a new inode),
    /// for a host that watches for a new token; `nil` when there is none.
    public func fingerprint() -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: container.url(Self.path).path) else { return nil }
        let inode: UInt64 = switch attributes[.systemFileNumber] {
        case let number as UInt64: number
        case let number as Int: UInt64(clamping: number)
        default: 0
        }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(inode)-\(modified)"
    }

    /// Removes the token (the user signed out: the widgets must not be pushed to).
    public func remove() throws(SharedContainerError) {
        try container.remove(Self.path)
    }
}
