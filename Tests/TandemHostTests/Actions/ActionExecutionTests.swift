import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import TandemVault
import Testing

/// The host executing the widgets' action requests with its own grant, against a fake server
/// that keeps the action endpoint's rules (ETag, idempotency key, step-up).
@Suite("The host executes the widgets' actions once, and refuses what it must")
struct ActionExecutionTests {
    static let chairs = ActionRequest.Draft(
        ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), action: .approve, etag: #""e1""#, amount: "480.00", surface: .widget,
        family: "systemMedium")
    static let laptops = ActionRequest.Draft(
        ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1004"), action: .approve, etag: #""e2""#, amount: "2480.00", surface: .widget)

    let fixture: HostFixture
    let configuration: ClientConfiguration
    let share: AuxiliaryShare
    let sealingKey: SharedSealingKey

    init() async throws {
        fixture = try HostFixture()
        configuration = try await fixture.onboard()
        share = try fixture.share()
        sealingKey = try #require(try SharedSealingKey.load(from: fixture.sharedSecrets))
        fixture.server.setActionItems(["PR-1003": #""e1""#, "PR-1004": #""e2""#], stepUp: ["PR-1004"])
    }

    /// One background run of the step; returns its outcomes.
    @discardableResult
    func background(transport: (any HTTPTransport)? = nil, clock: any WallClock = SystemClock(), reloader: RecordingReloader = RecordingReloader())
        async throws -> [ActionExecutionOutcome]
    {
        let outcomes = Recorder<[ActionExecutionOutcome]>()
        let context = fixture.context(configuration: configuration, clock: clock, transport: transport)
        try await Flow([ActionExecutionStep(reloader: reloader, onExecution: { outcomes.append($0) })]).run(.background, in: context)
        return outcomes.all.flatMap { $0 }
    }

    @discardableResult
    func submit(_ draft: ActionRequest.Draft, lifetime: TimeInterval = ActionRequest.defaultLifetime, now: Date = Date()) throws -> ActionRequest {
        try fixture.container.actions.submit(draft, share: share, sealingKey: sealingKey, lifetime: lifetime, now: now)
    }

    func result(_ request: ActionRequest) -> ActionOutcome? {
        fixture.container.actions.result(id: request.id, sealingKey: sealingKey)?.outcome
    }

    @Test func aTapIsExecutedOnceWithTheETagShownAndAnIdempotencyKey() async throws {
        let request = try submit(Self.chairs)
        let outcomes = try await background()
        #expect(outcomes.map(\.outcome) == [.done(status: "approved")])
        #expect(result(request) == .done(status: "approved"))
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey).isEmpty)
        #expect(!fixture.vault.isUnlocked)
        let executed = fixture.server.executedActions
        #expect(executed.count == 1 && executed.first?.item == "PR-1003" && executed.first?.key == request.idempotencyKey)
        let sent = try #require(fixture.server.requests.last { $0.url.path.hasSuffix("/actions/approve") })
        #expect(sent.headers["If-Match"] == #""e1""#)
        let user = try #require(try fixture.userTokens())
        #expect(sent.headers["Authorization"] == "Bearer \(user.accessToken)", "the host's own grant")
        // Nothing left to do: a second run sends nothing.
        #expect(try await background().isEmpty)
        #expect(fixture.server.executedActions.count == 1)
    }

    @Test func aRequestFilePutBackAfterExecutionIsRefusedAsReplayed() async throws {
        let request = try submit(Self.chairs)
        let file = fixture.container.directory.appendingPathComponent("requests/\(request.id).action")
        let copy = try Data(contentsOf: file)
        try await background()
        // The item is pending again on the server (another round of the same approval), so
        // only the host's ledger stands between the copy and a second decision.
        fixture.server.setActionItems(["PR-1003": #""e1""#])
        try copy.write(to: file)
        let outcomes = try await background()
        #expect(outcomes.map(\.outcome) == [.refused(.replayed)])
        #expect(result(request) == .refused(.replayed))
        #expect(fixture.server.executedActions.count == 1)
    }

    @Test func aTamperedRequestIsRefusedUnderItsNameAndNothingIsSent() async throws {
        let request = try submit(Self.chairs)
        let file = fixture.container.directory.appendingPathComponent("requests/\(request.id).action")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: file)
        let outcomes = try await background()
        #expect(outcomes == [ActionExecutionOutcome(id: request.id, draft: nil, outcome: .refused(.tampered))])
        #expect(result(request) == .refused(.tampered))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(fixture.server.executedActions.isEmpty)
    }

    @Test func anExpiredRequestIsNotSent() async throws {
        let clock = ManualClock(start: Date())
        let request = try submit(Self.chairs, lifetime: 60, now: clock.now)
        clock.advance(by: .seconds(61))
        let outcomes = try await background(clock: clock)
        #expect(outcomes.map(\.outcome) == [.expired])
        #expect(result(request) == .expired)
        #expect(fixture.server.executedActions.isEmpty)
    }

    @Test func anItemChangedSinceItWasShownEndsAsAConflictAndTheRowsAreFetchedAgain() async throws {
        fixture.server.setActionItems(["PR-1003": #""e1-changed""#])
        let request = try submit(Self.chairs)
        let context = fixture.context(configuration: configuration)
        let reloader = RecordingReloader()
        try await Flow([ActionExecutionStep(reloader: reloader)]).run(.background, in: context)
        #expect(result(request) == .conflict)
        #expect(reloader.reloads.all == ["all"], "the result shows at once, before the rows are fetched again")
        #expect(context.contentChangedAt != nil, "the widgets' rows are fetched again in the same run")
        #expect(fixture.server.executedActions.isEmpty)
    }

    @Test func aHighValueApprovalWaitsForTheAppAndIsExecutedWithAStepUpProofThere() async throws {
        let request = try submit(Self.laptops)
        let reloader = RecordingReloader()
        let outcomes = try await background(reloader: reloader)
        #expect(outcomes.map(\.outcome) == [.needsApp])
        #expect(result(request) == .needsApp)
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [request], "kept for the app")
        #expect(!fixture.server.requests.contains { $0.url.path.contains("/actions/") }, "nothing sent without the user")
        #expect(reloader.reloads.all == ["all"], "the widget says so at once")

        // The user opens the app and unlocks it (here the device-only vault): the user is present.
        try fixture.vault.unlock()
        // The key was enrolled with the sign-in (AuthenticationStep's stepUpKey): the server knows it.
        let enrolled = try VaultStepUpKey.key(in: fixture.vault).publicKey.thumbprint
        fixture.server.state.withLock { $0.actions.stepUpKey = enrolled }
        let executed = Recorder<[ActionExecutionOutcome]>()
        let step = ActionExecutionStep(stepUpKey: { context in try VaultStepUpKey.key(in: context.vault) }, onExecution: { executed.append($0) })
        try await Flow([step]).run(.restore, in: fixture.context(configuration: configuration), keepVaultUnlocked: true)
        fixture.vault.lock()
        #expect(!fixture.server.requests.contains { $0.url.path == APIPath.stepUpKey }, "an ordinary opening enrols nothing (no Face ID)")
        #expect(executed.all.flatMap { $0 }.map(\.outcome) == [.done(status: "approved")])
        #expect(fixture.server.executedActions.map(\.item) == ["PR-1004"])
        let sent = try #require(fixture.server.requests.last { $0.url.path.hasSuffix("/actions/approve") })
        #expect(sent.headers[ItemActionRules.stepUpHeader] != nil)
    }

    @Test func onlyASignInOfThisRunThatEnrolledNoKeyEnrolsItHere() async throws {
        try fixture.vault.unlock()
        defer { fixture.vault.lock() }
        let step = ActionExecutionStep(stepUpKey: { context in try VaultStepUpKey.key(in: context.vault) })
        func enrolments() -> Int { fixture.server.requests.filter { $0.url.path == APIPath.stepUpKey }.count }

        let enrolledWithTheSignIn = fixture.context(configuration: configuration)
        enrolledWithTheSignIn.signedInThisRun = true
        enrolledWithTheSignIn.stepUpKeyEnrolledWithSignIn = true
        try await Flow([step]).run(.restore, in: enrolledWithTheSignIn, keepVaultUnlocked: true)
        #expect(enrolments() == 0)

        let signedInWithout = fixture.context(configuration: configuration)
        signedInWithout.signedInThisRun = true
        try await Flow([step]).run(.restore, in: signedInWithout, keepVaultUnlocked: true)
        #expect(enrolments() == 1)
        #expect(fixture.server.state.withLock { $0.actions.stepUpKey } == (try VaultStepUpKey.key(in: fixture.vault)).publicKey.thumbprint)
    }

    @Test func whenTheServerAsksForStepUpTheRequestWaitsForTheAppWhateverTheWidgetShowed() async throws {
        var understated = Self.laptops
        understated.amount = "24.80"  // the widget's figure is a hint; the server decides on its own
        let request = try submit(understated)
        let outcomes = try await background()
        #expect(outcomes.map(\.outcome) == [.needsApp])
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [request])
        #expect(fixture.server.executedActions.isEmpty)
    }

    @Test func aHostKilledWaitingForTheAnswerExecutesOnceAfterRestart() async throws {
        let request = try submit(Self.chairs)
        // The server executes, but its answer never arrives (the host is killed while waiting).
        let outcomes = try await background(transport: AnswerLosingTransport(server: fixture.server))
        #expect(outcomes.map(\.outcome) == [nil], "still pending")
        #expect(fixture.server.executedActions.count == 1)
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey) == [request])
        // The next run sends it again with the same idempotency key: the first answer comes back.
        #expect(try await background().map(\.outcome) == [.done(status: "approved")])
        #expect(fixture.server.executedActions.count == 1)
        #expect(result(request) == .done(status: "approved"))
    }

    @Test func aServerOutOfReachLeavesTheRequestPendingForTheNextRun() async throws {
        let request = try submit(Self.chairs)
        fixture.server.failNextActions(1, status: 503)
        #expect(try await background().map(\.outcome) == [nil])
        #expect(result(request) == nil)
        #expect(try await background().map(\.outcome) == [.done(status: "approved")])
    }

    @Test func eachOutcomeIsCountedByOutcomeSurfaceAndFamilyWithoutTheItem() async throws {
        let analytics = try Analytics(directory: fixture.directory.url.appendingPathComponent("analytics"))
        try submit(Self.chairs)
        try submit(Self.laptops)
        let step = ActionExecutionStep(analytics: analytics)
        try await Flow([step]).run(.background, in: fixture.context(configuration: configuration))
        let events = await analytics.pendingEvents()
        #expect(Set(events.map(\.name)) == ["widget.action.done", "widget.action.needs-app"])
        let done = try #require(events.first { $0.name == "widget.action.done" })
        #expect(done.properties == ["kind": "widget", "family": "systemMedium", "action": "approve"])
        #expect(!events.contains { $0.properties.values.contains("PR-1003") || $0.properties.values.contains("PR-1004") })
    }

    @Test func aFloodOfRequestsIsExecutedSixteenARunOldestFirst() async throws {
        let clock = ManualClock(start: Date())
        var etags: [String: String] = [:]
        var requests: [ActionRequest] = []
        for index in 0..<40 {
            let item = "PR-\(5000 + index)"
            etags[item] = #""e\#(index)""#
            let draft = ActionRequest.Draft(
                ItemAddress(destination: "sales", entitySet: "Approvals", item: item), action: .approve, etag: etags[item] ?? "", amount: "10.00", surface: .widget)
            // Written a second apart, newest first, so that the oldest are not the first names listed.
            let written = clock.now.addingTimeInterval(Double(-index))
            let request = try submit(draft, now: written)
            try FileManager.default.setAttributes(
                [.modificationDate: written], ofItemAtPath: fixture.container.directory.appendingPathComponent("requests/\(request.id).action").path)
            requests.append(request)
        }
        fixture.server.setActionItems(etags)
        let oldestFirst = requests.reversed().map(\.draft.item)

        let first = try await background(clock: clock)
        #expect(first.count == ActionExecution.maximumRequestsPerRun)
        #expect(fixture.server.executedActions.map(\.item) == Array(oldestFirst.prefix(16)), "one run, sixteen server calls, the oldest")
        #expect(fixture.container.actions.waiting(sealingKey: sealingKey).count == 24, "the rest waits")
        #expect(try await background(clock: clock).count == 16)
        #expect(try await background(clock: clock).count == 8)
        #expect(fixture.server.executedActions.map(\.item) == oldestFirst)
    }

    @Test func eachActionTellsTheServerWhereTheUserAskedForIt() async throws {
        var fromControl = Self.chairs
        fromControl.item = "PR-1005"
        fromControl.surface = .control
        fixture.server.setActionItems(["PR-1003": #""e1""#, "PR-1005": #""e1""#])
        try submit(Self.chairs)
        try submit(fromControl)
        #expect(try await background().map(\.outcome) == [.done(status: "approved"), .done(status: "approved")])
        let sent = fixture.server.requests.filter { $0.url.path.hasSuffix("/actions/approve") }
        let origins = Dictionary(sent.map { (String($0.url.path.split(separator: "/")[4]), $0.headers[ItemActionRules.originHeader]) }, uniquingKeysWith: { $1 })
        #expect(origins == ["PR-1003": "widget", "PR-1005": "control"])
    }

    @Test func aRequestCarryingAShareThatDoesNotOpenTheVaultIsRefused() async throws {
        let stale = try AuxiliaryShare(keyID: share.keyID, bytes: Data(repeating: 7, count: 32))
        let request = try fixture.container.actions.submit(Self.chairs, share: stale, sealingKey: sealingKey, now: Date())
        #expect(try await background().map(\.outcome) == [.refused(.wrongShare)])
        #expect(result(request) == .refused(.wrongShare))
        #expect(fixture.server.executedActions.isEmpty)
    }
}

/// Forwards action requests to the server and then loses the answer, as a connection cut
/// after the server committed does; everything else goes through.
struct AnswerLosingTransport: HTTPTransport {
    let server: FakeTandemServer

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        let response = try await server.send(request)
        if request.url.path.contains("/actions/") { throw .transport("the connection was cut") }
        return response
    }
}
