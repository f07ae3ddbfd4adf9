import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

/// The widgets' push token crosses the shared container sealed, and the host reads back exactly
/// what the widget extension wrote, or a typed error.
@Suite("Widget push token")
struct WidgetPushTokenTests {
    let home: ContainerHome
    let token = Data((0..<32).map { UInt8($0) })

    init() throws {
        home = try ContainerHome()
    }

    @Test func theHostReadsWhatTheWidgetWroteAndNothingBefore() throws {
        let key = try home.sealingKey()
        #expect(try home.container().widgetPushToken.read(sealingKey: key) == nil)
        try home.container().widgetPushToken.write(token, sealingKey: key)
        #expect(try home.container().widgetPushToken.read(sealingKey: key) == token)
        let newer = Data(repeating: 7, count: 32)
        try home.container().widgetPushToken.write(newer, sealingKey: key)
        #expect(try home.container().widgetPushToken.read(sealingKey: key) == newer)
        try home.container().widgetPushToken.remove()
        #expect(try home.container().widgetPushToken.read(sealingKey: key) == nil)
    }

    @Test func theTokenIsNeverInAPlainFile() throws {
        try home.container().widgetPushToken.write(token, sealingKey: try home.sealingKey())
        for (_, bytes) in try home.containerFiles() {
            #expect(bytes.range(of: token) == nil)
        }
    }

    @Test func anotherKeyAChangedByteOrAnotherRecordKindIsATypedError() throws {
        let container = try home.container()
        try container.widgetPushToken.write(token, sealingKey: try home.sealingKey())
        let stranger = try SharedSealingKey.provision(in: FileSecretStorage(directory: home.root.appendingPathComponent("other-secrets")))
        #expect(throws: SharedContainerError.undecryptable(path: WidgetPushTokenRecord.path)) {
            try container.widgetPushToken.read(sealingKey: stranger)
        }

        let file = container.url(WidgetPushTokenRecord.path)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: file)
        #expect(throws: SharedContainerError.undecryptable(path: WidgetPushTokenRecord.path)) {
            try container.widgetPushToken.read(sealingKey: try home.sealingKey())
        }

        try container.writeSealed(token, kind: "grant", to: WidgetPushTokenRecord.path, symmetricKey: try home.sealingKey().symmetricKey)
        #expect(throws: SharedContainerError.foreignRecord(path: WidgetPushTokenRecord.path, kind: "grant")) {
            try container.widgetPushToken.read(sealingKey: try home.sealingKey())
        }
    }

    @Test func aTokenOfAnImpossibleLengthIsNeitherWrittenNorRead() throws {
        let container = try home.container()
        let key = try home.sealingKey()
        #expect(throws: SharedContainerError.self) { try container.widgetPushToken.write(Data(count: 4), sealingKey: key) }
        #expect(throws: SharedContainerError.self) { try container.widgetPushToken.write(Data(count: 101), sealingKey: key) }
        #expect(try container.widgetPushToken.read(sealingKey: key) == nil, "nothing was written")

        // A key holder writing something else at its path under its kind: opened, then refused.
        try container.writeSealed(Data(count: 3), kind: WidgetPushTokenRecord.kind, to: WidgetPushTokenRecord.path, symmetricKey: key.symmetricKey)
        #expect(throws: SharedContainerError.corrupt(path: WidgetPushTokenRecord.path, reason: "a push token of 3 bytes")) {
            try container.widgetPushToken.read(sealingKey: key)
        }
    }
}
