import Foundation
@testable import TandemSharedContainer

/// Queued analytics events (`Sources/TandemSharedContainer/Events/`), drained by the host with
/// `EventQueue.drain`. The first byte picks what the rest is: (even) the bytes of an event file;
/// (odd) an event's plaintext, sealed with the shared sealing key as any extension may.
///
/// Invariants: an event file that opens is the event the key's holder queued; every drained
/// event lies at the path its id names and encodes and decodes to itself (after the first round,
/// which keeps milliseconds).
enum QueuedEventTarget {
    static var queued: QueuedEvent {
        QueuedEvent(
            name: "widget_tap", properties: ["kind": "orders", "family": "systemSmall"], timestamp: FuzzFixtures.shared.now,
            id: "6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b")
    }

    static var path: String { QueuedEvent.path(id: queued.id) }

    static let target = FuzzTarget(
        name: "event",
        summary: "a queued event file (raw, or a plaintext sealed under the shared sealing key) drained with EventQueue.drain",
        seeds: {
            let fixtures = FuzzFixtures.shared
            try? fixtures.container.events.enqueue(queued, sealingKey: fixtures.sealingKey)
            guard let record = fixtures.contents(at: path) else { return [] }
            var seeds = [Data([0]) + record]
            if let plaintext = try? fixtures.container.openSealed(
                record, kind: QueuedEvent.recordKind, path: path, symmetricKey: fixtures.sealingKey.symmetricKey)
            {
                seeds.append(Data([1]) + plaintext)
            }
            return seeds
        },
        run: run
    )

    private static func roundTrip(_ event: QueuedEvent?) -> QueuedEvent? {
        (try? JSONEncoder().encode(event)).flatMap { try? JSONDecoder().decode(QueuedEvent.self, from: $0) }
    }

    static func run(_ input: Data) {
        let fixtures = FuzzFixtures.shared
        let forged = input.first.map { $0 % 2 == 1 } ?? false
        let body = Data(input.dropFirst())
        if forged {
            do {
                try fixtures.container.writeSealed(body, kind: QueuedEvent.recordKind, to: path, symmetricKey: fixtures.sealingKey.symmetricKey)
            } catch {
                return
            }
        } else {
            fixtures.plant(body, at: path)
        }

        let container = fixtures.container
        let drained = Blocking.run { () async -> [QueuedEvent] in
            var sent: [QueuedEvent] = []
            await container.events.drain(sealingKey: fixtures.sealingKey) { events in sent += events }
            return sent
        } ?? []
        Invariant.expect(drained.count <= 1, "one event file gave \(drained.count) events")
        for event in drained {
            Invariant.expect(QueuedEvent.path(id: event.id) == path, "an event was drained from a path its id does not name")
            if !forged {
                Invariant.expect(event == queued, "an event file opened to an event nobody queued")
            }
            // The wire form keeps milliseconds, so the first round may round the timestamp; from
            // then on the event is stable.
            let sent = roundTrip(event)
            Invariant.expect(sent != nil && roundTrip(sent) == sent, "an event does not encode and decode to itself")
        }
    }
}
