#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the host wrote back for one action request: the request's id and item, how it ended and
/// when. Sealed under the ``SharedSealingKey``: a forged "done" would lie to the user.
///
/// ```swift
/// if let result = try container.actions.result(id: request.id, sealingKey: sealingKey) { show(result.outcome) }
/// ```
public struct ActionResult: Codable, Hashable, Sendable {
    /// The request's id (``ActionRequest/id``).
    public var id: String
    /// The request as the widget wrote it; `nil` when the host could not read it (tampered).
    public var draft: ActionRequest.Draft?
    /// How it ended.
    public var outcome: ActionOutcome
    /// When the host decided.
    public var at: Date

    /// A result for request `id`.
    public init(id: String, draft: ActionRequest.Draft?, outcome: ActionOutcome, at: Date) {
        self.id = id
        self.draft = draft
        self.outcome = outcome
        self.at = at
    }

    static let recordKind = "action-result"

    static func path(id: String) -> String { "action-results/\(id).result" }

    /// How long results are kept for the widgets to show: an hour.
    public static let retention: TimeInterval = 3_600
}
