#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel

/// A widget's side of an action: what its App Intent does when the user taps Approve. It writes
/// a sealed ``ActionRequest`` for the host and returns at once; the widget then reloads and the
/// row shows ``WidgetActionState/pending(_:)`` until the host's result arrives.
///
/// The widget never calls the action endpoint: its grant is read-only. The host executes the
/// request with its own grant, in its next background run or at once when the request wakes it.
///
/// ```swift
/// let submitter = WidgetActionSubmitter(container: container, credentials: SharedSecretCredentials(storage: sharedSecrets))
/// let request = try submitter.submit(.approve, on: row.action!, surface: .widget, family: "systemMedium")
/// ```
public struct WidgetActionSubmitter: Sendable {
    /// The App Group container.
    public let container: SharedContainer
    /// Where the share and the sealing key are read.
    public let credentials: any WidgetCredentialSource
    /// How long the host may take before the request expires.
    public let lifetime: TimeInterval
    private let clock: any WallClock

    /// A submitter writing into `container` with `credentials`' secrets.
    public init(
        container: SharedContainer, credentials: any WidgetCredentialSource, lifetime: TimeInterval = ActionRequest.defaultLifetime,
        clock: any WallClock = SystemClock()
    ) {
        self.container = container
        self.credentials = credentials
        self.lifetime = lifetime
        self.clock = clock
    }

    /// Asks the host to do `action` to `target`'s item, as shown; a second tap on the same entry
    /// returns the request already waiting, and a tap on an entry the host has already decided
    /// (a row older than its answer) is refused as ``WidgetActionError/notOffered``.
    ///
    /// - Parameters:
    ///   - action: What the user tapped.
    ///   - target: The row's item as the widget showed it.
    ///   - surface: Where the tap happened.
    ///   - family: The widget family, if a widget.
    /// - Throws: ``WidgetActionError``.
    @discardableResult
    public func submit(_ action: ItemAction, on target: WidgetRowAction, surface: ActionSurface, family: String? = nil) throws(WidgetActionError) -> ActionRequest {
        guard target.actions.contains(action) else { throw .notOffered }
        let secrets: WidgetCredentials?
        do {
            secrets = try credentials.credentials()
        } catch {
            throw .unavailable(reason: "\(error)")
        }
        guard let secrets, let sealingKey = secrets.sealingKey else { throw .notArmed }
        let draft = ActionRequest.Draft(
            target.address, action: action, etag: target.etag, amount: target.amount, surface: surface, family: family)
        // The version the row shows was decided already (the row is older than the host's answer).
        if let decided = container.actions.result(id: ActionRequest.id(of: draft), sealingKey: sealingKey), case .done = decided.outcome {
            throw .notOffered
        }
        do {
            return try container.actions.submit(draft, share: secrets.share, sealingKey: sealingKey, lifetime: lifetime, now: clock.now)
        } catch {
            throw .container(error)
        }
    }
}
