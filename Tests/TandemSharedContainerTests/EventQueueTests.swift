import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Events queue")
struct EventQueueTests {
    let home: ContainerHome
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    let sealingKey: SharedSealingKey

    init() throws {
        home = try ContainerHome()
        sealingKey = try home.sealingKey()
    }

    func event(_ index: Int) -> QueuedEvent {
        QueuedEvent(
            name: "widget.render", properties: ["kind": "orders", "index": "\(index)"], timestamp: start.addingTimeInterval(Double(index)),
            id: "00000000-0000-4000-8000-\(String(format: "%012d", index))")
    }

    @Test func theHostDrainsTheOldestEventsAndRemovesThemOnceSent() async throws {
        let widget = try home.container()
        for index in [3, 1, 2, 0, 4] { try widget.events.enqueue(event(index), sealingKey: sealingKey) }
        var batches: [[QueuedEvent]] = []
        let sent = try await home.container().events.drain(limit: 3, sealingKey: sealingKey) { batch in batches.append(batch) }
        #expect(sent == 3)
        #expect(batches == [[event(0), event(1), event(2)]])
        let rest = try await home.container().events.drain(sealingKey: sealingKey) { batch in batches.append(batch) }
        #expect(rest == 2)
        #expect(batches.last == [event(3), event(4)])
        let none = try await home.container().events.drain(sealingKey: sealingKey) { batch in batches.append(batch) }
        #expect(none == 0)
        #expect(batches.count == 2, "send is not called for an empty queue")
    }

    @Test func aFailedSendLeavesTheEventsQueued() async throws {
        struct Offline: Error, Equatable {}
        let container = try home.container()
        try container.events.enqueue(event(0), sealingKey: sealingKey)
        try container.events.enqueue(event(1), sealingKey: sealingKey)
        await #expect(throws: Offline()) {
            try await container.events.drain(sealingKey: sealingKey) { (_: [QueuedEvent]) async throws(Offline) in throw Offline() }
        }
        var delivered: [QueuedEvent] = []
        await container.events.drain(sealingKey: sealingKey) { delivered = $0 }
        #expect(delivered == [event(0), event(1)])
    }

    @Test func drainedEventsEncodeAsTheServersEventBatch() throws {
        let tap = QueuedEvent(
            name: "widget.tap", properties: ["kind": "orders", "family": "systemMedium", "configuration": "open-orders"],
            timestamp: Date(timeIntervalSince1970: 1_741_944_600.25), id: "0b9d6a3e-1c2f-4a5b-9c8d-7e6f5a4b3c2d")
        let body = try JSONEncoder().encode(["events": [tap]])
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])
        let sent = try #require(json["events"]?.first)
        #expect(Set(sent.keys) == ["id", "name", "timestamp", "properties"])
        #expect(sent["id"] as? String == "0b9d6a3e-1c2f-4a5b-9c8d-7e6f5a4b3c2d")
        #expect(sent["name"] as? String == "widget.tap")
        #expect(sent["timestamp"] as? String == "2025-03-14T09:30:00.250Z")
        #expect(sent["properties"] as? [String: String] == tap.properties)
        // The server's own example (no fractional seconds) decodes too.
        let example = Data(#"{"id":"0b9d6a3e-1c2f-4a5b-9c8d-7e6f5a4b3c2d","name":"widget.tap","timestamp":"2025-03-14T09:30:00Z"}"#.utf8)
        let decoded = try JSONDecoder().decode(QueuedEvent.self, from: example)
        #expect(decoded.timestamp == Date(timeIntervalSince1970: 1_741_944_600))
        #expect(decoded.properties.isEmpty)
    }

    @Test func eventsTheServerWouldRefuseAreRefusedAtTheDoor() throws {
        let container = try home.container()
        #expect(throws: SharedContainerError.invalidName("widget tap")) { try container.events.enqueue(QueuedEvent(name: "widget tap"), sealingKey: sealingKey) }
        #expect(throws: SharedContainerError.invalidName("")) { try container.events.enqueue(QueuedEvent(name: ""), sealingKey: sealingKey) }
        #expect(throws: SharedContainerError.invalidName("../../status")) { try container.events.enqueue(QueuedEvent(name: "widget.tap", id: "../../status"), sealingKey: sealingKey) }
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedEventIsSkippedWithALogLineAndTheOthersAreSent(damage: DamagedFile) async throws {
        let container = try home.container()
        try container.events.enqueue(event(0), sealingKey: sealingKey)
        try container.events.enqueue(event(1), sealingKey: sealingKey)
        let path = QueuedEvent.path(id: event(0).id)
        try damage.bytes(replacing: Data(contentsOf: container.url(path))).write(to: container.url(path))
        try Data("stray".utf8).write(to: container.url("events/readme.txt"))
        var delivered: [QueuedEvent] = []
        await container.events.drain(sealingKey: sealingKey) { delivered = $0 }
        #expect(delivered == [event(1)])
        if damage == .newerVersion {
            // Written by a newer SDK: kept for a host that can read it.
            #expect(home.recorder.logged("skipping an unreadable shared record", "\(damage.expectedError(path: path, kind: "event", sealed: true))"))
        } else {
            #expect(home.recorder.logged("removing a queued event that is not sealed under the shared sealing key", "path=\(path)"))
        }
        #expect(home.recorder.logged("ignoring a foreign file", "events/readme.txt"))
    }
}
