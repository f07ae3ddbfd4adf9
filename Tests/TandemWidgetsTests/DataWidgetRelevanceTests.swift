import Foundation
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// A smart stack rotates to the widget whose current entry is most relevant: the business
/// widget scores the entry that brings new rows, and nothing else.
@Suite struct DataWidgetRelevanceTests {
    let home: WidgetHome
    let clock = VirtualClock(TestDates.at(9))
    let context = WidgetContext(family: .systemSmall)

    init() throws { home = try WidgetHome() }

    @Test func theEntryBringingNewRowsIsRelevantUntilTheyGoStale() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(Pages.orders(3), at: clock.now)
        let provider = home.provider(clock: clock)

        let first = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(first.entries.map(\.relevance) == [DataWidgetProvider.newRowsRelevance, nil], "fresh, then stale")

        // The same rows again (a reload the host did not cause): nothing new to show.
        clock.advance(by: 60)
        let again = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(again.entries.allSatisfy { $0.relevance == nil })

        // A fourth order beyond the three the widget shows changes nothing it draws: no news.
        clock.advance(by: 60)
        try home.writeSnapshot(Pages.orders(4), at: clock.now)
        let unseen = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(unseen.entries.allSatisfy { $0.relevance == nil })

        // The host's background run brings an order of another customer: relevant again.
        clock.advance(by: 60)
        let renamed = String(decoding: Pages.orders(3), as: UTF8.self).replacingOccurrences(of: "Alpine Logistics", with: "Zenith Partners")
        try home.writeSnapshot(Data(renamed.utf8), at: clock.now)
        let changed = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(changed.entries.first?.relevance == TimelineEntryRelevance(score: 1))
        #expect(changed.entries.first?.content.state == .fresh)
    }

    @Test func aSnapshotForTheGalleryDoesNotUseUpTheNews() async throws {
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        let provider = home.provider(clock: clock)
        _ = await provider.snapshot(for: WidgetHome.orders, in: context)
        let timeline = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(timeline.entries.first?.relevance == DataWidgetProvider.newRowsRelevance)
    }

    @Test func staleOrMissingRowsAreNotRelevant() async throws {
        try home.signIn(at: clock.now)
        let provider = home.provider(clock: clock)
        let waiting = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(waiting.entries.allSatisfy { $0.relevance == nil })

        try home.writeSnapshot(at: clock.now.addingTimeInterval(-3 * 3_600))
        let stale = await provider.timeline(for: WidgetHome.orders, in: context)
        #expect(stale.entries.allSatisfy { $0.relevance == nil })
    }
}
