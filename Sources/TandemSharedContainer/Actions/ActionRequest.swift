import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

/// A widget's request to act on a business item (approve or reject a requisition), waiting in
/// the container's `requests/` folder until the host executes it with its own grant.
///
/// The widget's grant is read-only on purpose, so a widget never calls the action endpoint: its
/// App Intent writes this record and returns at once, and the host executes it in its next
/// background run (or at once, when the request wakes it). The whole record, including the
/// auxiliary share the host opens its vault with, is sealed under the ``SharedSealingKey`` as a
/// data request is.
///
/// What it carries and why:
/// - the item, the action and the **ETag the widget showed**: the server executes only if the
///   item is still what the user saw (`If-Match`), else the result is a conflict;
/// - an **idempotency key**: sent as `Idempotency-Key`, so a retry after a crash or a lost
///   answer returns the first result instead of acting twice;
/// - a **nonce**: the host records each nonce it executes, so a copy of the file put back after
///   execution is refused as replayed;
/// - a short **expiry**: a tap the host could not execute in time is not executed later,
///   when the user no longer expects it.
///
/// Its id is a digest of the item, the action and the ETag: tapping the same button twice on the
/// same entry leaves one request.
///
/// ```swift
/// // In the widget's intent:
/// let request = try container.actions.submit(ActionRequest.Draft(target: target, action: .approve, surface: .widget),
///                                           share: share, sealingKey: sealingKey, now: now)
/// // In the host:
/// for reading in try container.actions.pending(sealingKey: sealingKey) { … }
/// ```
public struct ActionRequest: Sendable {
    /// The digest of destination, entity set, item, action and ETag; names the file and its result.
    public let id: String
    /// What to do, to which item, as the widget showed it.
    public let draft: Draft
    /// Sent as `Idempotency-Key`: the same for every try of this request.
    public let idempotencyKey: String
    /// Recorded by the host once it executes the request, so a replayed copy is refused.
    public let nonce: String
    /// When the widget wrote it.
    public let createdAt: Date
    /// After this the host does not execute it.
    public let expiresAt: Date
    /// The extension's auxiliary share, which opens the vault with the host's primary share.
    package let share: AuxiliaryShare
    /// The request's file as written or read, to remove exactly this request.
    let record: Data

    /// What a widget asks for: the fields it knows when the user taps.
    public struct Draft: Codable, Hashable, Sendable {
        /// The destination, such as `sales`.
        public var destination: String
        /// The entity set, such as `Approvals`.
        public var entitySet: String
        /// The item's id in its set, such as `PR-1003`.
        public var item: String
        /// What to do.
        public var action: ItemAction
        /// The item's `ETag` as the widget showed it.
        public var etag: String
        /// The item's amount as the widget showed it (text, as in the row), if it has one: the
        /// host and the server decide step-up on their own figures, this is for the widget's state.
        public var amount: String?
        /// Where the user tapped: for analytics by surface.
        public var surface: ActionSurface
        /// The widget family it was tapped in, if a widget.
        public var family: String?

        /// The item acted on.
        public var address: ItemAddress { ItemAddress(destination: destination, entitySet: entitySet, item: item) }

        /// A draft of `action` on the item at `address`, shown with `etag`.
        public init(
            _ address: ItemAddress, action: ItemAction, etag: String, amount: String? = nil, surface: ActionSurface, family: String? = nil
        ) {
            destination = address.destination
            entitySet = address.entitySet
            item = address.item
            self.action = action
            self.etag = etag
            self.amount = amount
            self.surface = surface
            self.family = family
        }
    }

    /// How long a request waits for the host, by default: twelve hours, a working day.
    ///
    /// On a phone a tap runs in the app and is executed at once; a request left in the container
    /// (the system ran the tap in the widget extension, the app could not reach the server) waits
    /// for the app's next run, which iOS grants 30 minutes or more after the app asked, and after
    /// a force-quit only when the user opens the app. The widget says "Sent when the app next
    /// runs" meanwhile; the `If-Match` of the ETag the user saw keeps a late execution from
    /// deciding an item that changed since.
    public static let defaultLifetime: TimeInterval = 12 * 3_600

    /// Whether the request has expired at `now`.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }

    // MARK: - Identity and storage

    /// What is sealed in the request's file.
    struct Body: Codable {
        var draft: Draft
        var idempotencyKey: String
        var nonce: String
        var createdAt: Date
        var expiresAt: Date
        var share: Data
    }

    static let recordKind = "action"
    static let suffix = "action"

    static func path(id: String) -> String { "requests/\(id).\(suffix)" }

    /// The request id of `draft` (see ``id(_:action:etag:)``).
    public static func id(of draft: Draft) -> String {
        id(draft.address, action: draft.action, etag: draft.etag)
    }

    /// The id of a request for `action` on the item at `address` shown with `etag`: SHA-256 over
    /// the five, hex. A widget finds the result of a tap on a row it shows by it, even when the
    /// host could not read the request.
    public static func id(_ address: ItemAddress, action: ItemAction, etag: String) -> String {
        let input = [address.destination, address.entitySet, address.item, action.rawValue, etag].joined(separator: "\u{0}")
        return Hex.encode(SHA256.hash(data: Data(input.utf8)))
    }

    /// 128 random bits, base64url: an idempotency key or a nonce.
    static func randomToken() -> String {
        Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    }
}

extension ActionRequest: Equatable {
    /// Two requests are equal when they are the same file; the share is compared only through
    /// the sealed record.
    public static func == (lhs: ActionRequest, rhs: ActionRequest) -> Bool {
        lhs.id == rhs.id && lhs.record == rhs.record
    }
}

extension ActionRequest: CustomStringConvertible {
    /// Action, item and id; never the share, the nonce or the key.
    public var description: String {
        "ActionRequest(\(draft.action.rawValue) \(draft.destination)/\(draft.entitySet)/\(draft.item), id: \(id.prefix(12)), expiresAt: \(expiresAt))"
    }
}
