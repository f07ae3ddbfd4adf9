import Foundation
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetRendering
import TandemWidgetSimulator
import TandemWidgets
import Testing

/// The server's Lock Screen policy reaches the widget through the sealed catalog the host
/// publishes: the provider puts it on every entry it returns, and a locked drawing follows it.
@Suite("The server's Lock Screen policy")
struct LockScreenPolicyTests {
    static let family = WidgetFamily.accessoryRectangular

    /// A widget whose orders are in the container, with the host's catalog under `policy`
    /// (`nil`: no catalog), and the first entry it shows in ``family``.
    static func firstEntry(catalogPolicy policy: LockScreenRedaction?) async throws -> WidgetContentEntry {
        let home = try WidgetHome()
        let clock = VirtualClock(TestDates.at(9))
        try home.signIn(at: clock.now)
        try home.writeSnapshot(at: clock.now)
        if let policy {
            try DestinationCatalog(destinations: [], fetchedAt: clock.now, lockScreen: policy).write(to: home.container, share: home.share)
        }
        let timeline = await home.provider(clock: clock).timeline(for: WidgetHome.orders, in: WidgetContext(family: family))
        #expect(timeline.entries.allSatisfy { $0.content.lockScreen == policy })
        return try #require(timeline.entries.first)
    }

    @Test("on (the default the server serves): a locked accessory widget draws no customer")
    func onHidesRows() async throws {
        let entry = try await Self.firstEntry(catalogPolicy: .accessoryFamilies)
        #expect(entry.content.rows.contains { $0.value.contains("Alpine") || $0.key.contains("Alpine") })
        let svg = WidgetRenderer().svg(entry.content.redactedWhenLocked(in: Self.family), family: Self.family)
        for fragment in ["Alpine", "Blue", "Cedar", "SO5"] { #expect(!svg.contains(fragment), "shows \(fragment)") }
        #expect(svg.contains(LockScreenRedaction.placeholder))
    }

    @Test("turned off for the app: a locked accessory widget draws its rows")
    func offShowsRows() async throws {
        let entry = try await Self.firstEntry(catalogPolicy: LockScreenRedaction.none)
        let svg = WidgetRenderer().svg(entry.content.redactedWhenLocked(in: Self.family), family: Self.family)
        #expect(svg.contains("Alpine") || svg.contains("SO5"))
        #expect(!svg.contains(LockScreenRedaction.placeholder))
    }

    @Test("no catalog yet: the default hides the rows")
    func noCatalogHidesRows() async throws {
        let entry = try await Self.firstEntry(catalogPolicy: nil)
        #expect(entry.content.lockScreenRedaction() == .accessoryFamilies)
        let svg = WidgetRenderer().svg(entry.content.redactedWhenLocked(in: Self.family), family: Self.family)
        #expect(!svg.contains("Alpine") && !svg.contains("SO5"))
    }

    @Test("the app's own choice and the server's policy together: the stricter wins")
    func stricterWins() {
        var content = WidgetContent(title: "Orders", rows: [], state: .fresh, footer: "")
        content.lockScreen = LockScreenRedaction.none
        #expect(content.lockScreenRedaction() == LockScreenRedaction.none)
        #expect(content.lockScreenRedaction(choosing: .accessoryFamilies) == .accessoryFamilies)
        content.lockScreen = .accessoryFamilies
        #expect(content.lockScreenRedaction(choosing: LockScreenRedaction.none) == .accessoryFamilies)
        let both = content.lockScreenRedaction(choosing: LockScreenRedaction(families: [.systemSmall]))
        #expect(both.families == LockScreenRedaction.accessoryFamilies.families.union([.systemSmall]))
    }

    @Test("a catalog cached before the policy was published decodes with the default")
    func olderCatalogDecodes() throws {
        let older = Data(#"{"destinations":[],"fetchedAt":0}"#.utf8)
        #expect(try JSONDecoder().decode(DestinationCatalog.self, from: older).lockScreen == .accessoryFamilies)
    }
}
