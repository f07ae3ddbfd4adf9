import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import TandemVault
import TandemWidgetModel
import TandemWidgets
import Testing

/// The app's process running a widget's tap (the system launched it for the intent): the widget's
/// dispatch writes the request and the host's executor sends it at once with the host's grant,
/// against a fake server keeping the action endpoint's rules.
@Suite("The app executes a widget's tap at once, with its own grant")
struct HostActionExecutorTests {
    static let chairs = WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), etag: #""e1""#, amount: "480.00")
    static let laptops = WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1004"), etag: #""e2""#, amount: "2480.00")

    let fixture: HostFixture
    let configuration: ClientConfiguration
    let sealingKey: SharedSealingKey

    init() async throws {
        fixture = try HostFixture()
        configuration = try await fixture.onboard()
        sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        fixture.server.setActionItems(["PR-1003": #""e1""#, "PR-1004": #""e2""#], stepUp: ["PR-1004"])
    }

    /// The tap as the intent runs it in the app: the widget's credentials write, the host executes.
    func tap(_ action: ItemAction = .approve, on item: WidgetRowAction, reloader: RecordingReloader = RecordingReloader())
        async throws -> WidgetActionDispatch.Dispatched
    {
        let submitter = WidgetActionSubmitter(container: fixture.container, credentials: SharedSecretCredentials(storage: fixture.sharedSecrets, vaultName: fixture.vault.name))
        let executor = HostActionExecutor(context: { fixture.context(configuration: configuration) }, reloader: reloader)
        return try await WidgetActionDispatch(submitter: submitter, executor: executor).dispatch(action, on: item, surface: .widget, family: "systemMedium")
    }

    @Test("with the vault locked: opened by the request's share, executed once, answered, locked again, the widgets reloaded")
    func aTapIsExecutedBeforeTheIntentReturns() async throws {
        let reloader = RecordingReloader()
        let dispatched = try await tap(on: Self.chairs, reloader: reloader)
        #expect(dispatched.outcome == .done(status: "approved"))
        #expect(fixture.container.actions.result(id: dispatched.request.id, sealingKey: sealingKey)?.outcome == .done(status: "approved"))
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey).isEmpty)
        #expect(!fixture.vault.isUnlocked)
        #expect(reloader.reloads.all == ["all"])
        let executed = fixture.server.executedActions
        #expect(executed.count == 1 && executed.first?.item == "PR-1003" && executed.first?.key == dispatched.request.idempotencyKey)
        let sent = try #require(fixture.server.requests.last { $0.url.path.hasSuffix("/actions/approve") })
        let user = try #require(try fixture.userTokens())
        #expect(sent.headers["Authorization"] == "Bearer \(user.accessToken)", "the host's own grant")
        #expect(sent.headers["If-Match"] == #""e1""#)
    }

    @Test("in the user's session the vault stays unlocked")
    func theUsersSessionIsLeftOpen() async throws {
        try fixture.vault.unlock()
        defer { fixture.vault.lock() }
        let dispatched = try await tap(.reject, on: Self.chairs)
        #expect(dispatched.outcome == .done(status: "rejected"))
        #expect(fixture.vault.isUnlocked)
    }

    @Test("an amount that needs the user is answered 'needs the app' and waits for the app in the foreground; nothing is sent")
    func aHighValueTapWaitsForTheUser() async throws {
        let dispatched = try await tap(on: Self.laptops)
        #expect(dispatched.outcome == .needsApp)
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [dispatched.request])
        #expect(!fixture.server.requests.contains { $0.url.path.contains("/actions/") })
    }

    @Test("a server out of reach leaves the request waiting for the host's next run, which executes it once")
    func aServerOutOfReachLeavesItForTheNextRun() async throws {
        fixture.server.failNextActions(1, status: 503)
        let dispatched = try await tap(on: Self.chairs)
        #expect(dispatched == .waiting(dispatched.request))
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [dispatched.request])
        try await Flow([ActionExecutionStep()]).run(.background, in: fixture.context(configuration: configuration))
        #expect(fixture.container.actions.result(id: dispatched.request.id, sealingKey: sealingKey)?.outcome == .done(status: "approved"))
        #expect(fixture.server.executedActions.count == 1)
    }

    @Test("a tap the system runs while a background flow holds the vault waits its turn on the app's queue")
    func aTapWaitsForTheBackgroundFlowOnTheQueue() async throws {
        let queue = HostWorkQueue()
        let started = HostWorkQueueTests.Gate()
        let release = HostWorkQueueTests.Gate()
        let background = Task {
            await queue.run {
                started.open()
                await release.wait()
            }
        }
        await started.wait()
        let submitter = WidgetActionSubmitter(container: fixture.container, credentials: SharedSecretCredentials(storage: fixture.sharedSecrets, vaultName: fixture.vault.name))
        let request = try submitter.submit(.approve, on: Self.chairs, surface: .widget)
        let executor = HostActionExecutor(context: { fixture.context(configuration: configuration) }, queue: queue)
        let execution = Task { await executor.execute(request) }
        for _ in 0..<50 { await Task.yield() }
        #expect(fixture.server.executedActions.isEmpty, "nothing is sent while the background flow holds the queue")
        release.open()
        await background.value
        #expect(await execution.value == .done(status: "approved"))
        #expect(fixture.server.executedActions.count == 1)
    }

    @Test("an app whose storage cannot be opened leaves the request waiting and sends nothing")
    func withoutItsStorageTheAppExecutesNothing() async throws {
        let submitter = WidgetActionSubmitter(container: fixture.container, credentials: SharedSecretCredentials(storage: fixture.sharedSecrets, vaultName: fixture.vault.name))
        let request = try submitter.submit(.approve, on: Self.chairs, surface: .widget)
        let executor = HostActionExecutor(context: { throw TestSetupError("no storage") })
        #expect(await executor.execute(request) == nil)
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [request])
        #expect(fixture.server.executedActions.isEmpty)
    }
}
