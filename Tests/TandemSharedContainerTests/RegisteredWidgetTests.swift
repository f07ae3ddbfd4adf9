import Foundation
import Testing

@testable import TandemSharedContainer

@Suite("Registered widgets")
struct RegisteredWidgetTests {
    let home: ContainerHome
    let small = RegisteredWidget(id: "orders-small", kind: "orders", family: "systemSmall", parameters: ["destination": "eu"])
    let medium = RegisteredWidget(id: "orders-medium", kind: "orders", family: "systemMedium", parameters: ["entitySet": "open-orders"])

    init() throws { home = try ContainerHome() }

    @Test func registeredInstancesAreListedUpdatedAndRemoved() throws {
        try home.container().widgets.register(small)
        try home.container().widgets.register(medium)
        #expect(try home.container().widgets.configurations() == [medium, small])
        var changed = small
        changed.parameters["destination"] = "us"
        try home.container().widgets.register(changed)
        #expect(try home.container().widgets.configurations() == [medium, changed])
        try home.container().widgets.remove(id: "orders-medium")
        try home.container().widgets.remove(id: "orders-medium")
        #expect(try home.container().widgets.configurations() == [changed])
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedConfigurationIsSkippedWithALogLine(damage: DamagedFile) throws {
        let container = try home.container()
        try container.widgets.register(small)
        try container.widgets.register(medium)
        let path = RegisteredWidget.path(id: small.id)
        try damage.bytes(replacing: Data(contentsOf: container.url(path))).write(to: container.url(path))
        #expect(try container.widgets.configurations() == [medium])
        #expect(home.recorder.logged("skipping an unreadable shared record", "\(damage.expectedError(path: path, kind: "configuration"))"))
    }

    @Test func idsThatAreNotFileNamesAreRefused() throws {
        let container = try home.container()
        for id in ["", "../status", ".hidden", "a/b"] {
            #expect(throws: SharedContainerError.invalidName(id)) {
                try container.widgets.register(RegisteredWidget(id: id, kind: "orders", family: "systemSmall"))
            }
            #expect(throws: SharedContainerError.invalidName(id)) { try container.widgets.remove(id: id) }
        }
        #expect(try container.widgets.configurations().isEmpty)
    }
}
