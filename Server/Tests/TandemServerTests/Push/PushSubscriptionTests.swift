import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Only devices whose widgets show a set are owed its pushes, and only when what they show
/// changed: rows past those shown, fields not shown and a change back to what was last pushed
/// owe nothing.
@Suite("Push subscriptions")
struct PushSubscriptionTests {
    @Test("a change is owed to the device whose widget shows the set, by the widget's delivery", arguments: TestBackend.allCases)
    func onlyTheDeviceShowingTheSetIsOwed(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let orders = try await PushFixture.make(
                    storage, hostToken: String(repeating: "a1", count: 32), widgetsToken: String(repeating: "a2", count: 32),
                    deviceID: "orders-phone", widgets: [PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 4, delivery: .direct)])
                _ = try await PushFixture.make(
                    storage, hostToken: String(repeating: "b1", count: 32), widgetsToken: String(repeating: "b2", count: 32),
                    deviceID: "tasks-phone", widgets: [PushWidgetSubscription(destination: "sales", entitySet: "Tasks", rows: 4, delivery: .brokered)])
                try await orders.storeCredentials(storage)
                try await orders.change(storage, rows: 2)
                let owed = try await storage.pushOutbox.due(now: orders.now, limit: 10)
                #expect(owed.map(\.deviceID) == ["orders-phone"] && owed.map(\.kind) == [.widgets], "\(owed)")

                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Tasks", rows: PushOutboxTests.rows(1), now: orders.now)
                let approvals = try await storage.pushOutbox.due(now: orders.now, limit: 10).filter { $0.entitySet == "Tasks" }
                #expect(approvals.map(\.deviceID) == ["tasks-phone"] && approvals.map(\.kind) == [.host], "a brokered widget wakes its host")

                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Customers", rows: PushOutboxTests.rows(1), now: orders.now)
                #expect(try await storage.pushOutbox.pendingCount() == 2, "nobody's widget shows the customers")
            }
        }
    }

    @Test("rows past those shown, fields not shown and a change back to what was pushed owe nothing", arguments: TestBackend.allCases)
    func unchangedViewsOweNothing(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(
                    storage, widgets: [PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 2, fields: ["id", "customer"], delivery: .direct)])
                try await fixture.storeCredentials(storage)
                func write(_ rows: [String]) async throws {
                    try await storage.businessData.replaceEntitySet(destination: "sales", title: "Sales", name: "Orders", rows: rows, now: fixture.now)
                }
                let shown = [#"{"id":1,"customer":"Alpine","note":"a"}"#, #"{"id":2,"customer":"Blue","note":"b"}"#]
                try await write(shown + [#"{"id":3,"customer":"Cedar"}"#])
                let first = try #require(try await storage.pushOutbox.due(now: fixture.now, limit: 10).first)
                #expect(try await storage.pushOutbox.claim(first, leaseUntil: fixture.now.adding(.seconds(30))))
                try await storage.pushOutbox.markSent(first, now: fixture.now)
                #expect(try await storage.pushOutbox.pendingCount() == 0)

                try await write(shown + [#"{"id":3,"customer":"Cedar Foods"}"#])
                #expect(try await storage.pushOutbox.pendingCount() == 0, "a row past the two shown")
                try await write([#"{"id":1,"customer":"Alpine","note":"z"}"#, shown[1]])
                #expect(try await storage.pushOutbox.pendingCount() == 0, "a field the widget does not show")
                try await write([#"{"id":1,"customer":"Alpine Logistics"}"#, shown[1]])
                #expect(try await storage.pushOutbox.pendingCount() == 1, "a shown field changed")
                try await write(shown)
                #expect(try await storage.pushOutbox.pendingCount() == 0, "back to what the last push showed: the owed push is withdrawn")
                try await storage.businessData.replaceEntitySet(destination: "sales", title: "Sales (renamed)", name: "Orders", rows: shown, now: fixture.now)
                #expect(try await storage.pushOutbox.pendingCount() == 0, "a title-only change")
            }
        }
    }

    @Test("a push sent to a device covers the changes of its other sets made before it")
    func onePushCoversEverySet() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await database.withStorage { storage in
                let fixture = try await PushFixture.make(storage, widgets: ["Orders", "Customers"].map {
                    PushWidgetSubscription(destination: "sales", entitySet: $0, rows: 4, delivery: .direct)
                })
                try await fixture.storeCredentials(storage)
                try await fixture.change(storage, rows: 1)
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales", name: "Customers", rows: PushOutboxTests.rows(1), now: fixture.now)
                let owed = try await storage.pushOutbox.due(now: fixture.now, limit: 10)
                #expect(owed.count == 2)
                let sent = try #require(owed.first)
                #expect(try await storage.pushOutbox.claim(sent, leaseUntil: fixture.now.adding(.seconds(30))))
                let paced = PushPacer(settings: PushSettings()).recording(nil, timeZone: nil, sentAt: fixture.now)
                #expect(try await storage.pushOutbox.reservePacing(sent.device, from: nil, to: paced))
                #expect(try await !storage.pushOutbox.reservePacing(sent.device, from: nil, to: paced), "a second sender cannot take the same slot")
                try await storage.pushOutbox.markSent(sent, now: fixture.now)
                let other = try #require(try await storage.pushOutbox.due(now: fixture.now, limit: 10).first)
                #expect(other.entitySet != sent.entitySet && other.pacing?.deliveredAt == fixture.now, "the other set sees the push")
            }
        }
    }
}
