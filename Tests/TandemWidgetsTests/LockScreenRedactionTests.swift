import Foundation
import SnapshotTesting
import TandemWidgetModel
import TandemWidgetRendering
import Testing

/// A locked phone shows Lock Screen and StandBy widgets to whoever holds it: under the default
/// policy the accessory families keep the title, the state and the footer, but draw no row key
/// or value. References of the locked drawings live in `__Snapshots__/LockScreenRedactionTests/`.
@Suite("Lock Screen redaction", .snapshots(record: SnapshotRecording.mode))
struct LockScreenRedactionTests {
    static let accessories = WidgetFamily.allCases.filter(\.isAccessory)

    /// Rows whose keys and values are nowhere else in the drawing.
    static let content = WidgetContent(
        title: "Orders",
        rows: [
            WidgetRow(key: "Alpine Logistics", value: "48 210 EUR", link: URL(string: "sales://widget/row/1")),
            WidgetRow(key: "Bergmann AG", value: "7 950 EUR"),
        ],
        state: .fresh, footer: "updated 5 min ago")

    @Test("by default every accessory family hides its rows, and no home-screen family does")
    func defaultPolicy() {
        for family in WidgetFamily.allCases {
            #expect(LockScreenRedaction.accessoryFamilies.hidesRows(in: family) == family.isAccessory, "\(family)")
            #expect(!LockScreenRedaction.none.hidesRows(in: family))
        }
    }

    @Test("the locked SVG of each accessory family shows no row key or value, but the title and the state", arguments: accessories)
    func lockedAccessoriesShowNoRow(family: WidgetFamily) {
        let locked = Self.content.redacted(in: family, by: .accessoryFamilies)
        let svg = WidgetRenderer().svg(locked, family: family)
        // Not even the start of one: a narrow family draws "48 2…" of a value.
        for fragment in ["Alpine", "Bergmann", "48", "7 9", "EUR"] {
            #expect(!svg.contains(fragment), "\(family) shows \(fragment)")
        }
        #expect(!svg.contains("sales://widget/row/1"))
        #expect(svg.contains(LockScreenRedaction.placeholder))
        if family != .accessoryCircular { #expect(svg.contains("Orders")) }
        #expect(locked.state == Self.content.state && locked.footer == Self.content.footer)
        #expect(locked.rows.count == Self.content.rows.count)
        assertSnapshot(of: svg, as: .lines, named: "locked-\(family.rawValue)")

        let unlocked = WidgetRenderer().svg(Self.content, family: family)
        #expect(unlocked.contains("48"), "unlocked, the same family shows its first row")
    }

    @Test("a home-screen family, or a policy of none, is left as it is")
    func uncoveredFamiliesAreUnchanged() {
        #expect(Self.content.redacted(in: .systemMedium, by: .accessoryFamilies) == Self.content)
        #expect(Self.content.redacted(in: .accessoryRectangular, by: .none) == Self.content)
    }

    @Test("the policy round-trips through JSON")
    func codable() throws {
        let policy = LockScreenRedaction(families: [.accessoryRectangular, .systemSmall])
        let decoded = try JSONDecoder().decode(LockScreenRedaction.self, from: JSONEncoder().encode(policy))
        #expect(decoded == policy)
    }
}
