import Foundation
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import TandemWidgetModel
import TandemWidgets
import Testing

/// A tap where the system runs the intent: in the widget extension (no executor) the request
/// waits for the host; in the app's process the installed executor runs it at once. Each runtime
/// behaviour is a double of the executor: executes, leaves the request waiting, never called.
@Suite("A widget's tap, in the extension and in the app's process")
struct WidgetActionDispatchTests {
    static let item = WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), etag: #""e1""#, amount: "480.00")

    /// An executor double: answers `answer`, or leaves the request waiting (`nil`), and records
    /// what it was handed.
    final class ScriptedExecutor: ItemActionExecutor {
        let answer: ActionOutcome?
        let executed = Locked<[ActionRequest]>([])
        init(answer: ActionOutcome?) { self.answer = answer }
        func execute(_ request: ActionRequest) async -> ActionOutcome? {
            executed.withLock { $0.append(request) }
            return answer
        }
    }

    let home: WidgetHome
    init() throws { home = try WidgetHome() }

    var submitter: WidgetActionSubmitter { WidgetActionSubmitter(container: home.container, credentials: home.credentials) }

    @Test("in the widget extension the request is written and waits for the host")
    func theExtensionLeavesTheRequestForTheHost() async throws {
        let dispatched = try await WidgetActionDispatch(submitter: submitter).dispatch(.approve, on: Self.item, surface: .widget, family: "systemMedium")
        guard case .waiting(let request) = dispatched else { Issue.record("\(dispatched)"); return }
        #expect(dispatched.outcome == nil)
        #expect(home.container.actions.waiting(sealingKey: home.sealingKey) == [request])
        #expect(request.draft.address == Self.item.address && request.draft.action == .approve && request.draft.family == "systemMedium")
    }

    @Test("in the app's process the request just written is executed at once, and its outcome said")
    func theAppExecutesTheRequestItWrote() async throws {
        let executor = ScriptedExecutor(answer: .done(status: "approved"))
        let dispatched = try await WidgetActionDispatch(submitter: submitter, executor: executor).dispatch(.approve, on: Self.item, surface: .widget)
        let written = try #require(home.container.actions.waiting(sealingKey: home.sealingKey).first, "the file is written first")
        #expect(dispatched == .executed(written, .done(status: "approved")))
        #expect(executor.executed.withLock { $0 } == [written], "the same request, once")
    }

    @Test("an app that cannot finish it now leaves the request waiting for the host's next run")
    func anUnfinishedExecutionLeavesTheRequestWaiting() async throws {
        let executor = ScriptedExecutor(answer: nil)
        let dispatched = try await WidgetActionDispatch(submitter: submitter, executor: executor).dispatch(.reject, on: Self.item, surface: .widget)
        #expect(dispatched == .waiting(try #require(home.container.actions.waiting(sealingKey: home.sealingKey).first)))
        #expect(executor.executed.withLock { $0.count } == 1)
    }

    @Test("a tap that cannot be written reaches no executor: not armed, locked, or not offered")
    func nothingIsExecutedWithoutARequest() async throws {
        let executor = ScriptedExecutor(answer: .done(status: "approved"))
        let dispatch = WidgetActionDispatch(submitter: submitter, executor: executor)
        home.credentials.set(.none)
        await #expect(throws: WidgetActionError.notArmed) { try await dispatch.dispatch(.approve, on: Self.item, surface: .widget) }
        home.credentials.set(.locked)
        await #expect(throws: WidgetActionError.self) { try await dispatch.dispatch(.approve, on: Self.item, surface: .widget) }
        home.credentials.set(.available(WidgetCredentials(share: home.share, sealingKey: home.sealingKey)))
        let approveOnly = WidgetRowAction(Self.item.address, etag: Self.item.etag, actions: [.approve])
        await #expect(throws: WidgetActionError.notOffered) { try await dispatch.dispatch(.reject, on: approveOnly, surface: .widget) }
        #expect(executor.executed.withLock { $0.isEmpty })
        #expect(home.container.actions.waiting(sealingKey: home.sealingKey).isEmpty)
    }
}
