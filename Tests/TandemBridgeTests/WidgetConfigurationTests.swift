import Foundation
import Testing
@testable import TandemBridge

@Suite("Widget configurations")
struct WidgetConfigurationTests {
    let home: BridgeHome
    let small = WidgetConfiguration(id: "orders-small", kind: "orders", family: "systemSmall", parameters: ["destination": "eu"])
    let medium = WidgetConfiguration(id: "orders-medium", kind: "orders", family: "systemMedium", parameters: ["entitySet": "open-orders"])

    init() throws { home = try BridgeHome() }

    @Test func registeredInstancesAreListedUpdatedAndRemoved() throws {
        try home.container().registerWidget(small)
        try home.container().registerWidget(medium)
        #expect(try home.container().widgetConfigurations() == [medium, small])
        var changed = small
        changed.parameters["destination"] = "us"
        try home.container().registerWidget(changed)
        #expect(try home.container().widgetConfigurations() == [medium, changed])
        try home.container().removeWidget(id: "orders-medium")
        try home.container().removeWidget(id: "orders-medium")
        #expect(try home.container().widgetConfigurations() == [changed])
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedConfigurationIsSkippedWithALogLine(damage: DamagedFile) throws {
        let container = try home.container()
        try container.registerWidget(small)
        try container.registerWidget(medium)
        let path = WidgetConfiguration.path(id: small.id)
        try damage.bytes(replacing: Data(contentsOf: container.url(path))).write(to: container.url(path))
        #expect(try container.widgetConfigurations() == [medium])
        #expect(home.recorder.logged("skipping an unreadable shared record", "\(damage.expectedError(path: path, kind: "configuration"))"))
    }

    @Test func idsThatAreNotFileNamesAreRefused() throws {
        let container = try home.container()
        for id in ["", "../status", ".hidden", "a/b"] {
            #expect(throws: BridgeError.invalidName(id)) {
                try container.registerWidget(WidgetConfiguration(id: id, kind: "orders", family: "systemSmall"))
            }
            #expect(throws: BridgeError.invalidName(id)) { try container.removeWidget(id: id) }
        }
        #expect(try container.widgetConfigurations().isEmpty)
    }
}
