import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

/// The host's word that the widgets' push token is registered crosses the container sealed: the
/// widget reads back exactly what the host wrote, or a typed error, never a forged status.
@Suite("Widget push status")
struct WidgetPushStatusTests {
    let home: ContainerHome
    let status = WidgetPushStatus(registeredAt: Date(timeIntervalSince1970: 1_767_600_000))

    init() throws {
        home = try ContainerHome()
    }

    @Test func theWidgetReadsWhatTheHostWroteUntilItIsRemoved() throws {
        let key = try home.sealingKey()
        let container = try home.container()
        #expect(try container.widgetPushStatus.read(sealingKey: key) == nil)
        try container.widgetPushStatus.write(status, sealingKey: key)
        #expect(try container.widgetPushStatus.read(sealingKey: key) == status)
        let renewed = WidgetPushStatus(registeredAt: status.registeredAt.addingTimeInterval(3_600))
        try container.widgetPushStatus.write(renewed, sealingKey: key)
        #expect(try container.widgetPushStatus.read(sealingKey: key) == renewed)
        try container.widgetPushStatus.remove()
        #expect(try container.widgetPushStatus.read(sealingKey: key) == nil)
        try container.widgetPushStatus.remove()
    }

    @Test func aStatusUnderAnotherKeyChangedOrPlainIsATypedError() throws {
        let container = try home.container()
        let key = try home.sealingKey()
        let stranger = try SharedSealingKey.provision(in: FileSecretStorage(directory: home.root.appendingPathComponent("other-secrets")))
        try container.widgetPushStatus.write(status, sealingKey: stranger)
        #expect(throws: SharedContainerError.undecryptable(path: WidgetPushStatusRecord.path)) {
            try container.widgetPushStatus.read(sealingKey: key)
        }

        try container.widgetPushStatus.write(status, sealingKey: key)
        let file = container.url(WidgetPushStatusRecord.path)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: file)
        #expect(throws: SharedContainerError.undecryptable(path: WidgetPushStatusRecord.path)) {
            try container.widgetPushStatus.read(sealingKey: key)
        }

        try container.write(status, kind: WidgetPushStatusRecord.kind, to: WidgetPushStatusRecord.path)
        #expect(throws: SharedContainerError.self, "a plain record, which anyone could write") {
            try container.widgetPushStatus.read(sealingKey: key)
        }

        try container.writeSealed(Data("{}".utf8), kind: WidgetPushStatusRecord.kind, to: WidgetPushStatusRecord.path, symmetricKey: key.symmetricKey)
        #expect(throws: SharedContainerError.corrupt(path: WidgetPushStatusRecord.path, reason: "the sealed widget-push-status body does not decode")) {
            try container.widgetPushStatus.read(sealingKey: key)
        }
    }
}
