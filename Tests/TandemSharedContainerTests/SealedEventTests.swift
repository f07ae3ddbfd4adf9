import Foundation
import Testing

@testable import TandemSharedContainer

/// Queued events are uploaded by the host as the user: only the host and its extensions, which
/// hold the shared sealing key, can queue one.
@Suite("Sealed events")
struct SealedEventTests {
    let home: ContainerHome
    // Whole seconds: events travel with millisecond precision.
    let render = QueuedEvent(name: "widget.render", properties: ["kind": "orders", "family": "systemSmall"], timestamp: Date(timeIntervalSince1970: 1_800_000_000))
    let tap = QueuedEvent(name: "widget.tap", properties: ["kind": "orders", "family": "systemMedium"], timestamp: Date(timeIntervalSince1970: 1_800_000_001))

    let sealingKey: SharedSealingKey

    init() throws {
        home = try ContainerHome()
        sealingKey = try home.sealingKey()
    }

    func drained(_ container: SharedContainer) async -> [QueuedEvent] {
        var delivered: [QueuedEvent] = []
        await container.events.drain(sealingKey: sealingKey) { delivered = $0 }
        return delivered
    }

    @Test func aQueuedEventRoundTripsSealed() async throws {
        try home.container().events.enqueue(render, sealingKey: sealingKey)
        let file = try Data(contentsOf: home.container().url(QueuedEvent.path(id: render.id)))
        #expect(file.range(of: Data("systemSmall".utf8)) == nil, "the event is not in plain text")
        #expect(await drained(try home.container()) == [render])
        #expect(try home.container().events.count() == 0)
    }

    @Test func anInjectedPlainEventIsNeitherSentNorKept() async throws {
        let container = try home.container()
        try container.events.enqueue(tap, sealingKey: sealingKey)
        let injected = QueuedEvent(name: "purchase.completed", properties: ["amount": "999"])
        try container.write(injected, kind: QueuedEvent.recordKind, to: QueuedEvent.path(id: injected.id))
        #expect(await drained(container) == [tap])
        #expect(try container.events.count() == 0, "the injected file is removed")
        #expect(home.recorder.logged("path=\(QueuedEvent.path(id: injected.id))"))
    }

    @Test func aTamperedEventIsNeitherSentNorKept() async throws {
        let container = try home.container()
        try container.events.enqueue(render, sealingKey: sealingKey)
        try container.events.enqueue(tap, sealingKey: sealingKey)
        let path = container.url(QueuedEvent.path(id: render.id))
        var bytes = try Data(contentsOf: path)
        if let range = bytes.range(of: Data("systemSmall".utf8)) {
            bytes.replaceSubrange(range, with: Data("systemLarge".utf8))  // an event in plain text
        } else {
            bytes[bytes.endIndex - 1] ^= 0x01  // a sealed one: its tag no longer matches
        }
        try bytes.write(to: path)
        #expect(await drained(container) == [tap])
        #expect(try container.events.count() == 0)
    }
}
