import Foundation
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// A business widget on an actionable entity set (approvals): which rows offer buttons, what a
/// tap writes, and the state each row shows from the host's results.
@Suite struct ApprovalRowsTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let context = WidgetContext(family: .systemMedium)
    static let approvals = DataWidgetConfiguration(destination: "sales", entitySet: "Approvals", limit: 4)

    init() throws {
        home = try WidgetHome()
        try home.signIn(at: clock.now)
    }

    /// Four approvals: two pending (one above the default step-up threshold of 1,000), one
    /// approved, and one without an ETag (a set the server does not treat as actionable).
    static func page(etag1003: String = #""e1003""#) -> Data {
        let items = [
            #"{"ApprovalID":"PR-1003","Amount":"480.00","ETag":\#(String(reflecting: etag1003)),"Status":"pending","Title":"Desk chairs"}"#,
            #"{"ApprovalID":"PR-1004","Amount":"2480.00","ETag":"\"e1004\"","Status":"pending","Title":"Laptops"}"#,
            #"{"ApprovalID":"PR-1005","Amount":"90.00","ETag":"\"e1005\"","Status":"approved","Title":"Cables"}"#,
            #"{"ApprovalID":"PR-1006","Amount":"10.00","Status":"pending","Title":"Pens"}"#,
        ]
        return Data(#"{"items":[\#(items.joined(separator: ","))],"limit":4,"next":null,"offset":0,"total":4}"#.utf8)
    }

    func rows() async throws -> [WidgetRow] {
        try #require(await home.provider(clock: clock).timeline(for: Self.approvals, in: context).entries.first).content.rows
    }

    func submitter() -> WidgetActionSubmitter {
        WidgetActionSubmitter(container: home.container, credentials: home.credentials, clock: clock)
    }

    @Test func pendingItemsOfferApproveAndRejectDecidedAndUntaggedOnesDoNot() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let rows = try await rows()
        #expect(rows.map(\.key) == ["PR-1003", "PR-1004", "PR-1005", "PR-1006"])
        #expect(rows.map(\.visibleActions) == [[.approve, .reject], [.approve, .reject], [], []])
        let first = try #require(rows[0].action)
        #expect(first.item == "PR-1003" && first.etag == #""e1003""# && first.amount == "480.00" && !first.needsApp)
        #expect(try #require(rows[1].action).needsApp)
        #expect(rows[3].action == nil)
        #expect(rows.allSatisfy { $0.actionState == nil })
    }

    @Test func aTapShowsPendingAtOnceAndADoubleTapWritesOneRequest() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let target = try #require(try await rows()[0].action)
        let first = try submitter().submit(.approve, on: target, surface: .widget, family: "systemMedium")
        let second = try submitter().submit(.approve, on: target, surface: .widget, family: "systemMedium")
        #expect(first == second)
        let readings = try home.container.actions.pending(sealingKey: home.sealingKey)
        #expect(readings == [.request(first)])
        #expect(first.draft.surface == .widget && first.draft.family == "systemMedium" && first.draft.etag == #""e1003""#)
        let row = try await rows()[0]
        #expect(row.actionState == .pending(.approve))
        #expect(row.visibleActions.isEmpty)
    }

    @Test func aRowOffersOnlyWhatItOffers() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let decided = try #require(try await rows()[2].action)
        #expect(throws: WidgetActionError.notOffered) { try submitter().submit(.approve, on: decided, surface: .widget) }
        home.credentials.set(.none)
        let pending = WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), etag: #""e1003""#)
        #expect(throws: WidgetActionError.notArmed) { try submitter().submit(.approve, on: pending, surface: .widget) }
        home.credentials.set(.locked)
        #expect(throws: WidgetActionError.self) { try submitter().submit(.approve, on: pending, surface: .widget) }
        #expect(try home.container.actions.pending(sealingKey: home.sealingKey).isEmpty)
    }

    @Test func theHostsResultsShowOnTheirRows() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let rows = try await rows()
        let chairs = try submitter().submit(.approve, on: try #require(rows[0].action), surface: .widget)
        let laptops = try submitter().submit(.reject, on: try #require(rows[1].action), surface: .widget)
        clock.advance(by: 2)
        try home.container.actions.write(
            ActionResult(id: chairs.id, draft: chairs.draft, outcome: .done(status: "approved"), at: clock.now), sealingKey: home.sealingKey)
        home.container.actions.complete(chairs)
        try home.container.actions.write(ActionResult(id: laptops.id, draft: laptops.draft, outcome: .needsApp, at: clock.now), sealingKey: home.sealingKey)
        var shown = try await self.rows()
        #expect(shown[0].actionState == .done(status: "approved") && shown[0].visibleActions.isEmpty)
        #expect(shown[1].actionState == .needsApp(.reject) && shown[1].visibleActions == [.approve, .reject])
        #expect(shown[0].actionState?.label == "Approved")
        // The host refetched: the item is approved, with a new ETag; the row still says what happened.
        try home.writeSnapshot(Self.page(etag1003: #""e1003b""#), for: Self.approvals, at: clock.now)
        shown = try await self.rows()
        #expect(shown[0].actionState == .done(status: "approved"))
    }

    @Test func aRequestTheHostCouldNotReadShowsRefusedOnTheRowThatWroteIt() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let request = try submitter().submit(.approve, on: try #require(try await rows()[0].action), surface: .widget)
        // The host found the file tampered with: it knows only the file's name.
        home.container.actions.discard(id: request.id)
        clock.advance(by: 1)
        try home.container.actions.write(ActionResult(id: request.id, draft: nil, outcome: .refused(.tampered), at: clock.now), sealingKey: home.sealingKey)
        let row = try await rows()[0]
        #expect(row.actionState == .refused(reason: "tampered"))
        #expect(row.visibleActions == [.approve, .reject])
    }

    @Test func aTapTheHostDidNotExecuteInTimeShowsExpired() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        try submitter().submit(.approve, on: try #require(try await rows()[0].action), surface: .widget)
        clock.advance(by: ActionRequest.defaultLifetime + 1)
        #expect(try await rows()[0].actionState == .expired)
        // Tapping again is a new request, shown pending over the old one's expiry.
        try submitter().submit(.approve, on: try #require(try await rows()[0].action), surface: .widget)
        #expect(try await rows()[0].actionState == .pending(.approve))
    }

    @Test func aTapLeftForTheAppSaysPlainlyThatItWaitsUntilItsExpiry() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let request = try submitter().submit(.approve, on: try #require(try await rows()[0].action), surface: .widget)
        // The timeline turns the row by itself: pending while the app executes it (on a phone, before
        // the intent returns), then waiting for the app's next run, then expired.
        let timeline = await home.provider(clock: clock).timeline(for: Self.approvals, in: context)
        let states = timeline.entries.map { ($0.date.timeIntervalSince(clock.now), $0.content.rows[0].actionState) }
        #expect(states.first.map { $0.0 == 0 && $0.1 == .pending(.approve) } == true, "\(states)")
        #expect(states.contains { $0.0 == 5 && $0.1 == .waiting(.approve) }, "\(states)")
        #expect(states.contains { $0.0 == request.expiresAt.timeIntervalSince(clock.now) && $0.1 == .expired }, "\(states)")
        #expect(states.allSatisfy { $0.1 != nil })
        // A reload after the window says the same.
        clock.advance(by: 6)
        let row = try await rows()[0]
        #expect(row.actionState == .waiting(.approve) && row.actionState?.label == "Sent when the app next runs")
        #expect(row.visibleActions.isEmpty, "no second tap while it waits")
        #expect(request.expiresAt.timeIntervalSince(request.createdAt) == 12 * 3_600, "a working day: longer than the app's background cadence")
    }

    @Test func aTapOnARowTheHostHasAlreadyDecidedIsRefused() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let target = try #require(try await rows()[0].action)
        let request = try submitter().submit(.approve, on: target, surface: .widget)
        clock.advance(by: 1)
        try home.container.actions.write(
            ActionResult(id: request.id, draft: request.draft, outcome: .done(status: "approved"), at: clock.now), sealingKey: home.sealingKey)
        home.container.actions.complete(request)
        // A widget process still holding the row as it was (its snapshot not yet fetched again).
        #expect(throws: WidgetActionError.notOffered) { try submitter().submit(.approve, on: target, surface: .widget) }
        #expect(try home.container.actions.pending(sealingKey: home.sealingKey).isEmpty)
    }

    @Test func aForgedResultDoesNotShow() async throws {
        try home.writeSnapshot(Self.page(), for: Self.approvals, at: clock.now)
        let request = try submitter().submit(.approve, on: try #require(try await rows()[0].action), surface: .widget)
        let forged = Data(#"{"id":"\#(request.id)","outcome":{"done":{"status":"approved"}},"at":0}"#.utf8)
        try forged.write(to: home.container.directory.appendingPathComponent("action-results/\(request.id).result"))
        #expect(try await rows()[0].actionState == .pending(.approve))
    }
}
