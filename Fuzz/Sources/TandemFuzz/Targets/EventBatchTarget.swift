import Foundation
import TandemProtocol

/// The analytics batch (`Sources/TandemProtocol/Analytics/`): JSON the server decodes from any
/// holder of an app's key and checks with `EventBatchRules`, and the `JSONValue` properties in
/// it (`Sources/TandemProtocol/Encoding/JSONValue.swift`).
///
/// Invariants: a batch that decodes encodes and decodes to itself; a name `isValidName`
/// accepts is within `maximumNameLength`.
enum EventBatchTarget {
    static let target = FuzzTarget(
        name: "event-batch",
        summary: "an analytics batch decoded as EventBatchDocument; what decodes re-encodes the same and names follow EventBatchRules",
        seeds: {
            let batch = EventBatchDocument(events: [
                .init(id: "6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b", name: "widget_tap", timestamp: "2027-01-15T08:00:00.250Z",
                      properties: ["kind": .string("orders"), "family": .string("systemSmall"), "row": .number(3), "pinned": .bool(true),
                                   "tags": .array([.string("a"), .null]), "extra": .object(["depth": .number(1.5)])]),
                .init(id: "7a2d3c0f-4b5e-4f60-9b8c-0d1e2f3a4b5c", name: "widget_shown", timestamp: "2027-01-15T08:00:01Z"),
            ])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return [batch, EventBatchDocument(events: [])].compactMap { try? encoder.encode($0) }
        },
        run: run
    )

    static func run(_ input: Data) {
        guard let batch = try? JSONDecoder().decode(EventBatchDocument.self, from: input) else { return }
        for event in batch.events where EventBatchRules.isValidName(event.name) {
            Invariant.expect(event.name.utf8.count <= EventBatchRules.maximumNameLength, "a name of \(event.name.utf8.count) bytes is valid")
        }
        let again = (try? JSONEncoder().encode(batch)).flatMap { try? JSONDecoder().decode(EventBatchDocument.self, from: $0) }
        Invariant.expect(again == batch, "a batch does not encode and decode to itself")
    }
}
