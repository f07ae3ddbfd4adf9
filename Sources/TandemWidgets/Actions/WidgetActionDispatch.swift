#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel

/// What a tap on Approve or Reject does, wherever the system runs the button's intent: it writes
/// the sealed request (``WidgetActionSubmitter``) and, in the host app's process, where an
/// ``ItemActionExecutor`` is installed, executes it at once with the host's grant.
///
/// The file is written first in every process, so a request the app cannot finish now (the
/// vault does not open, the server is out of reach, an amount that needs the user) is still
/// there for the host's next run, and a replayed or repeated tap is recognised by its id.
///
/// ```swift
/// // In the widget extension: the request waits for the host.
/// let dispatch = WidgetActionDispatch(submitter: submitter)
/// // In the app: executed now.
/// let dispatch = WidgetActionDispatch(submitter: submitter, executor: HostActionExecutor(context: services.backgroundContext))
/// switch try await dispatch.dispatch(.approve, on: target, surface: .widget) { … }
/// ```
public struct WidgetActionDispatch: Sendable {
    /// What became of a tap.
    public enum Dispatched: Equatable, Sendable {
        /// Executed in this process; the outcome is written back for the widgets.
        case executed(ActionRequest, ActionOutcome)
        /// Written for the host, which executes it in its next run (or the app did not finish it now).
        case waiting(ActionRequest)

        /// The request written.
        public var request: ActionRequest {
            switch self {
            case .executed(let request, _), .waiting(let request): request
            }
        }

        /// The outcome, when executed in this process.
        public var outcome: ActionOutcome? {
            if case .executed(_, let outcome) = self { outcome } else { nil }
        }
    }

    /// Writes the requests.
    public let submitter: WidgetActionSubmitter
    /// Executes them at once; `nil` in the widget extension, which has no grant to act with.
    public let executor: (any ItemActionExecutor)?

    /// A dispatch writing with `submitter` and, in the app, executing with `executor`.
    public init(submitter: WidgetActionSubmitter, executor: (any ItemActionExecutor)? = nil) {
        self.submitter = submitter
        self.executor = executor
    }

    /// Writes the request for `action` on `target` and executes it when this process can.
    ///
    /// - Throws: ``WidgetActionError`` when the request cannot be written (nothing is executed).
    public func dispatch(_ action: ItemAction, on target: WidgetRowAction, surface: ActionSurface, family: String? = nil)
        async throws(WidgetActionError) -> Dispatched
    {
        let request = try submitter.submit(action, on: target, surface: surface, family: family)
        guard let executor, let outcome = await executor.execute(request) else { return .waiting(request) }
        return .executed(request, outcome)
    }
}
