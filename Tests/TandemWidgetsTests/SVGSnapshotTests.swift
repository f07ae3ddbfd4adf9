import Foundation
import SnapshotTesting
import TandemWidgetModel
import TandemWidgetRendering
import TandemWidgets
import Testing

/// Pins the SVG of every state in the main families, and of every action state in the families
/// that show buttons and in the small one, which shows the state without buttons. References
/// live in `__Snapshots__/SVGSnapshotTests/`; a missing one fails (see `SnapshotRecording`).
@Suite("SVG snapshots", .snapshots(record: SnapshotRecording.mode))
struct SVGSnapshotTests {
    static let families: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge, .accessoryRectangular]
    static let actionFamilies: [WidgetFamily] = WidgetFamily.allCases.filter(\.showsActions) + [.systemSmall]

    @Test(arguments: families)
    func everyStateLooksAsRecorded(family: WidgetFamily) {
        for sample in WidgetGallery.standardSamples(now: TestDates.at(9)) {
            assertSnapshot(
                of: WidgetRenderer().svg(sample.content, family: family), as: .lines,
                named: "\(sample.name)-\(family.rawValue)"
            )
        }
    }

    @Test(arguments: actionFamilies)
    func everyActionStateLooksAsRecorded(family: WidgetFamily) {
        for sample in WidgetGallery.standardActionSamples() {
            assertSnapshot(
                of: WidgetRenderer().svg(sample.content, family: family), as: .lines,
                named: "\(sample.name)-\(family.rawValue)"
            )
        }
    }
}
