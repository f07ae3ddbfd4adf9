import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the client and the server agree on about an item action
/// (``APIPath/itemAction(_:action:)``): the headers, the fields every
/// row of an actionable entity set carries, and the rule of an item's ETag.
///
/// An action request carries the item's ETag in `If-Match` (a changed item answers `412`) and an
/// ``idempotencyKeyHeader`` (a repeat answers what the first got, with ``replayedHeader``):
///
/// ```swift
/// var request = URLRequest(url: actionURL)
/// request.httpMethod = "POST"
/// request.setValue(row.etag, forHTTPHeaderField: "If-Match")
/// request.setValue(key, forHTTPHeaderField: ItemActionRules.idempotencyKeyHeader)
/// ```
public enum ItemActionRules {
    /// The header naming a request so that a repeat executes once (16–128 characters of
    /// `[A-Za-z0-9._~-]`: ``isValidIdempotencyKey(_:)``).
    public static let idempotencyKeyHeader = "Idempotency-Key"
    /// The header carrying a ``StepUpProof`` for an action above the app's threshold.
    public static let stepUpHeader = "Tandem-Step-Up"
    /// The header (`true`) on an answer replayed from a request with the same idempotency key.
    public static let replayedHeader = "Idempotent-Replayed"
    /// The header naming where the user asked for the action (an ``Origin``'s raw value), so the
    /// server's audit line can say "from the widget". The host sends it when it executes a
    /// request it found in the shared container; it is what that request says, which the host
    /// cannot check (any holder of the shared sealing key writes requests), so it is a label for
    /// the audit, never a reason to allow anything.
    public static let originHeader = "Tandem-Action-Origin"
    /// The field of an actionable row holding its ETag, set by the server.
    public static let etagField = "ETag"
    /// The field of an actionable row holding its status.
    public static let statusField = "Status"
    /// The status of an item awaiting a decision; only such an item can be decided.
    public static let pendingStatus = "pending"
    /// The field the server records the deciding user in.
    public static let decidedByField = "DecidedBy"
    /// The field the server records the decision time in (ISO 8601).
    public static let decidedAtField = "DecidedAt"
    /// The `error` of a `401` asking for a step-up proof (RFC 9470).
    public static let stepUpRequiredError = "insufficient_user_authentication"

    /// The characters of an idempotency key.
    public static let idempotencyKeyLength = 16...128

    /// Whether `key` is 16–128 characters of `[A-Za-z0-9._~-]` (a UUID is one; so is 22
    /// characters of base64url).
    public static func isValidIdempotencyKey(_ key: String) -> Bool {
        idempotencyKeyLength.contains(key.utf8.count)
            && key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// Where the user asked for an action: the values of ``originHeader``, and what analytics
    /// count actions by (an action event's `kind`). TandemSharedContainer calls it `ActionSurface`.
    ///
    /// ```swift
    /// let origin = request.headers[ItemActionRules.originHeader].flatMap(ItemActionRules.Origin.init(rawValue:))
    /// ```
    public enum Origin: String, Codable, Hashable, Sendable, CaseIterable {
        /// A button in a Home Screen or Lock Screen widget (`Button(intent:)`).
        case widget
        /// A control in Control Center or on the Lock Screen (`ControlWidgetButton`).
        case control
        /// Siri, Spotlight or the Shortcuts app (an App Shortcut).
        case shortcut
        /// The app itself, in the foreground.
        case app
    }

    /// An item's ETag: a strong tag, the first 128 bits of the SHA-256 of the row's canonical
    /// JSON without its ``etagField``, in hex, quoted (`"3f2a…"`). The server computes it; a
    /// client only reads a row's ``etagField`` and sends it back in `If-Match`.
    public static func itemTag(canonicalRowWithoutTag: some DataProtocol) -> String {
        var tag = "\""
        for byte in SHA256.hash(data: canonicalRowWithoutTag).prefix(16) {
            tag += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return tag + "\""
    }

    /// ``itemTag(canonicalRowWithoutTag:)`` of `row`: its ``etagField`` left out, the rest
    /// encoded as JSON with sorted keys and unescaped slashes.
    ///
    /// - Throws: An `EncodingError` for a row JSON cannot hold (a non-finite number).
    public static func itemTag(row: [String: JSONValue]) throws -> String {
        var row = row
        row[etagField] = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return itemTag(canonicalRowWithoutTag: try encoder.encode(row))
    }
}
