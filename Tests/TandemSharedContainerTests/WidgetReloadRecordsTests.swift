import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

/// A widget instance's reload records: its pacing sealed, its unavailable count plain but
/// clamped, each in its own file named by the instance.
@Suite("Widget reload records")
struct WidgetReloadRecordsTests {
    let home: ContainerHome
    let orders = EntityKey(destination: "sales", entitySet: "SalesOrders")
    let approvals = EntityKey(destination: "sales", entitySet: "Approvals")

    init() throws {
        home = try ContainerHome()
    }

    @Test func eachInstanceReadsBackItsOwnPacing() throws {
        let reloads = try home.container().widgetReloads
        let key = try home.sealingKey()
        #expect(try reloads.pacing(of: orders, sealingKey: key) == nil)
        let pacing = WidgetReloadPacing(scheduledReloadAt: Date(timeIntervalSince1970: 1_767_600_000), lastExternalReloadAt: nil)
        try reloads.setPacing(pacing, of: orders, sealingKey: key)
        #expect(try reloads.pacing(of: orders, sealingKey: key) == pacing)
        #expect(try reloads.pacing(of: approvals, sealingKey: key) == nil)
    }

    @Test func aPacingRecordMovedToAnotherInstanceOrUnderAnotherKeyDoesNotOpen() throws {
        let container = try home.container()
        let key = try home.sealingKey()
        let pacing = WidgetReloadPacing(scheduledReloadAt: nil, lastExternalReloadAt: Date(timeIntervalSince1970: 1_767_600_000))
        try container.widgetReloads.setPacing(pacing, of: orders, sealingKey: key)
        let ordersPath = try WidgetReloadRecords.path(WidgetReloadRecords.pacingKind, of: orders)
        let approvalsPath = try WidgetReloadRecords.path(WidgetReloadRecords.pacingKind, of: approvals)
        try FileManager.default.copyItem(at: container.url(ordersPath), to: container.url(approvalsPath))
        #expect(throws: SharedContainerError.undecryptable(path: approvalsPath)) {
            try container.widgetReloads.pacing(of: approvals, sealingKey: key)
        }
        let stranger = try SharedSealingKey.provision(in: FileSecretStorage(directory: home.root.appendingPathComponent("other-secrets")))
        #expect(throws: SharedContainerError.undecryptable(path: ordersPath)) {
            try container.widgetReloads.pacing(of: orders, sealingKey: stranger)
        }
    }

    @Test func theUnavailableCountIsCountedClampedAndRemoved() throws {
        let reloads = try home.container().widgetReloads
        #expect(try reloads.unavailableCount(of: orders) == 0)
        try reloads.setUnavailableCount(3, of: orders)
        #expect(try reloads.unavailableCount(of: orders) == 3)
        #expect(try reloads.unavailableCount(of: approvals) == 0)
        try reloads.setUnavailableCount(1_000, of: orders)
        #expect(try reloads.unavailableCount(of: orders) == WidgetReloadRecords.maximumUnavailableCount)
        try reloads.removeUnavailableCount(of: orders)
        #expect(try reloads.unavailableCount(of: orders) == 0)
        try reloads.removeUnavailableCount(of: orders)
    }

    @Test func aForgedUnavailableCountIsClampedOrATypedError() throws {
        let container = try home.container()
        let path = try WidgetReloadRecords.path(WidgetReloadRecords.unavailableKind, of: orders)
        func forge(_ text: String) throws { try Data(text.utf8).write(to: container.url(path)) }
        try forge(#"{"body":{"count":-40},"format":"tandem.shared","kind":"widget-unavailable","version":1}"#)
        #expect(try container.widgetReloads.unavailableCount(of: orders) == 0)
        try forge(#"{"body":{"count":9223372036854775807},"format":"tandem.shared","kind":"widget-unavailable","version":1}"#)
        #expect(try container.widgetReloads.unavailableCount(of: orders) == WidgetReloadRecords.maximumUnavailableCount)
        try forge("not json")
        #expect(throws: SharedContainerError.corrupt(path: path, reason: "not a Tandem shared record")) {
            try container.widgetReloads.unavailableCount(of: orders)
        }
    }

    @Test func recordsAreNamedByAHashOfTheInstanceNeverByWhatItShows() throws {
        let container = try home.container()
        try container.widgetReloads.setPacing(WidgetReloadPacing(scheduledReloadAt: nil, lastExternalReloadAt: nil), of: orders, sealingKey: try home.sealingKey())
        try container.widgetReloads.setUnavailableCount(1, of: orders)
        let names = try FileManager.default.contentsOfDirectory(atPath: container.directory.path).filter { $0.hasPrefix("widget-") }.sorted()
        #expect(names.count == 2)
        for name in names {
            #expect(name.range(of: #"^widget-(pacing|unavailable)-[0-9a-f]{64}$"#, options: .regularExpression) != nil, "\(name)")
        }
    }
}
