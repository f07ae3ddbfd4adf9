import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `POST /v1/destinations/{d}/{s}/{item}/actions/{action}`: a signed-in host approves an item
/// once, whatever it repeats; a changed item, a reused key, a missing header, the widgets'
/// grant and API keys are refused, each as the wire says; every decision and refusal is audited.
@Suite("Item actions")
struct ItemActionEndpointTests {
    @Test("approving once changes the item, moves the set's version, records a change, owes pushes and is audited", arguments: TestBackend.allCases)
    func approvingOnceChangesTheItem(backend: TestBackend) async throws {
        // The outbox is looked at here, not sent from.
        try await ActionFixture.withServer(backend, configure: { $0.push.runsSender = false }) { fixture in
            let (token, _) = try await fixture.signIn()
            try await fixture.database.withStorage { storage in
                let approvals = [PushWidgetSubscription.Delivery.direct, .brokered].map { delivery in
                    PushWidgetSubscription(
                        destination: ActionFixture.approvals.destination, entitySet: ActionFixture.approvals.entitySet, rows: 4, delivery: delivery)
                }
                let push = try await PushFixture.make(storage, clock: fixture.demo.clock, widgets: approvals)
                try await push.storeCredentials(storage)
            }
            let before = try await fixture.item(ActionFixture.lowValue)
            let versionBefore = try await Self.version(fixture)
            #expect(before.status == "pending" && before.etag.hasPrefix("\"") && before.etag.count == 34)
            fixture.demo.clock.advance(by: .seconds(5))

            let answer = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: before.etag)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            let document = try JSONDecoder().decode(ItemActionResultDocument.self, from: answer.body)
            let after = try await fixture.item(ActionFixture.lowValue)
            #expect(document.item == ActionFixture.lowValue && document.action == .approve && document.status == "approved")
            #expect(document.etag == after.etag && answer.header("ETag") == after.etag && after.etag != before.etag)
            #expect(answer.header("Cache-Control") == "no-store" && answer.header(ItemActionRules.replayedHeader) == nil)
            #expect(after.status == "approved")
            #expect(after.row[ItemActionRules.decidedByField] == .string(fixture.demo.user.id))
            #expect(after.row[ItemActionRules.decidedAtField] == .string(document.decidedAt))
            #expect(ISO8601Time.date(from: document.decidedAt) == fixture.demo.clock.now)
            #expect(try ItemActionRules.itemTag(row: after.row) == after.etag, "the new ETag follows the rule")

            let versionAfter = try await Self.version(fixture)
            #expect(versionAfter != versionBefore)
            try await fixture.database.withStorage { storage in
                let changes = try await storage.changes.changes(since: Timestamp(fixture.demo.clock.now), limit: 10)
                #expect(changes.map(\.entitySet) == [DemoBusinessData.approvals] && changes.first?.version == versionAfter)
                #expect(try await storage.pushOutbox.pendingCount() == 2, "a push owed to the host and one to its widgets")
            }
            let page = try await fixture.client.get(
                "v1/destinations/sales/Approvals?limit=1", headers: ["Authorization": "Bearer \(token)"])
            #expect(page.header("ETag") != nil && String(decoding: page.body, as: UTF8.self).contains(#""Status":"approved""#))
            let audit = try await fixture.auditLines()
            #expect(audit.map(\.kind) == ["action.approved"])
            #expect(audit.first?.userID == fixture.demo.user.id && audit.first?.detail.contains("sales/Approvals/PR-1001") == true)
            #expect(audit.allSatisfy { !$0.detail.contains(token) })
        }
    }

    @Test("the same key twice executes once and replays the first answer; the same key for another request is 422", arguments: TestBackend.allCases)
    func aRepeatedKeyExecutesOnce(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            let key = ActionFixture.newKey()
            let first = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: key, ifMatch: etag)
            let versionAfterFirst = try await Self.version(fixture)
            fixture.demo.clock.advance(by: .seconds(60))
            let second = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: key, ifMatch: etag)
            #expect(first.status == 200 && second.status == 200)
            #expect(second.body == first.body && second.header("ETag") == first.header("ETag"))
            #expect(second.header(ItemActionRules.replayedHeader) == "true")
            #expect(try await Self.version(fixture) == versionAfterFirst, "the repeat changed nothing")

            let other = try await fixture.act(.reject, on: ActionFixture.lowValue, token: token, key: key, ifMatch: etag)
            #expect(other.status == 422 && other.json["error"] == "idempotency_key_reused")
            let otherBody = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: key, ifMatch: etag, body: Data("{}".utf8))
            #expect(otherBody.status == 422, "the body is part of the request")
            // Refusals are sampled per app and address: the second within the minute is only counted.
            #expect(try await fixture.auditLines().map(\.kind) == ["action.approved", "action.refused"])
        }
    }

    @Test("two requests with the same key at once execute once; two keys for one version: the second is 412", arguments: TestBackend.allCases)
    func concurrentRequestsExecuteOnce(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            let key = ActionFixture.newKey()
            let sameKey = try await withThrowingTaskGroup(of: HTTPTestResponse.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: key, ifMatch: etag) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sameKey.allSatisfy { $0.status == 200 && $0.body == sameKey[0].body })
            #expect(sameKey.filter { $0.header(ItemActionRules.replayedHeader) == nil }.count == 1)
            #expect(try await fixture.auditLines().filter { $0.kind == "action.approved" }.count == 1)

            let other = try await fixture.item("PR-1003").etag
            let differentKeys = try await withThrowingTaskGroup(of: HTTPTestResponse.self) { group in
                for action in [ItemAction.approve, .reject] {
                    group.addTask { try await fixture.act(action, on: "PR-1003", token: token, key: ActionFixture.newKey(), ifMatch: other) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(differentKeys.map(\.status).sorted() == [200, 412])
            let decided = try await fixture.item("PR-1003")
            #expect(differentKeys.first { $0.status == 412 }?.json["current_etag"] == decided.etag)
        }
    }

    @Test("a stale If-Match is 412 naming the current ETag, kept for its key; a decided item is 409", arguments: TestBackend.allCases)
    func aChangedItemIsRefused(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let shown = try await fixture.item(ActionFixture.lowValue).etag
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: shown).status == 200)
            let current = try await fixture.item(ActionFixture.lowValue).etag

            let staleKey = ActionFixture.newKey()
            let stale = try await fixture.act(.reject, on: ActionFixture.lowValue, token: token, key: staleKey, ifMatch: shown)
            #expect(stale.status == 412 && stale.json["error"] == "precondition_failed")
            #expect(stale.json["current_etag"] == current && stale.header("ETag") == current)
            let again = try await fixture.act(.reject, on: ActionFixture.lowValue, token: token, key: staleKey, ifMatch: shown)
            #expect(again.status == 412 && again.body == stale.body && again.header(ItemActionRules.replayedHeader) == "true")
            #expect(try await fixture.act(.reject, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: "W/\(current)").status == 412,
                    "a weak tag never matches")

            let decided = try await fixture.act(.reject, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: current)
            #expect(decided.status == 409 && decided.json["error"] == "already_decided" && decided.json["status"] == "approved")
            #expect(try await fixture.item(ActionFixture.lowValue).etag == current, "refusals change nothing")
            let kinds = try await fixture.auditLines().map(\.kind)
            #expect(kinds == ["action.approved", "action.refused"], "refusals sampled per app and address")
        }
    }

    @Test("missing or malformed headers, unknown actions and items are refused before anything is read or changed")
    func badRequestsAreRefused() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            let (token, _) = try await fixture.signIn()
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            let noKey = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: nil, ifMatch: etag)
            #expect(noKey.status == 400 && noKey.json["error"] == "invalid_request")
            for bad in ["short", String(repeating: "k", count: 129), "has spaces in it ok", "ünicode-key-123456"] {
                #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: bad, ifMatch: etag).status == 400, "\(bad)")
            }
            let noIfMatch = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: nil)
            #expect(noIfMatch.status == 428 && noIfMatch.json["error"] == "precondition_required")
            let unknownAction = try await fixture.client.post(
                "/v1/destinations/sales/Approvals/PR-1001/actions/escalate", body: Data(), contentType: "application/json",
                headers: ["Authorization": "Bearer \(token)", ItemActionRules.idempotencyKeyHeader: ActionFixture.newKey(), "If-Match": etag])
            #expect(unknownAction.status == 404)
            #expect(try await fixture.act(.approve, on: "PR-9999", token: token, key: ActionFixture.newKey(), ifMatch: etag).status == 404)
            let notActionable = try await fixture.client.post(
                APIPath.itemAction(ItemAddress(destination: "sales", entitySet: "Customers", item: "C1001"), action: .approve), body: Data(),
                contentType: "application/json",
                headers: ["Authorization": "Bearer \(token)", ItemActionRules.idempotencyKeyHeader: ActionFixture.newKey(), "If-Match": etag])
            #expect(notActionable.status == 404)
            #expect(try await fixture.item(ActionFixture.lowValue).etag == etag)
        }
    }

    @Test("the widgets' grant from a token exchange and API keys get 403 insufficient_scope, audited; no credential 401", arguments: TestBackend.allCases)
    func onlyTheHostsGrantActs(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let widgets = try await fixture.widgetsToken(exchanging: token)
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            let byWidget = try await fixture.act(.approve, on: ActionFixture.lowValue, token: widgets, key: ActionFixture.newKey(), ifMatch: etag)
            #expect(byWidget.status == 403 && byWidget.json["error"] == "insufficient_scope")
            #expect(byWidget.header("WWW-Authenticate")?.contains(#"scope="actions""#) == true)
            let byKey = try await fixture.act(
                .approve, on: ActionFixture.lowValue, token: nil, key: ActionFixture.newKey(), ifMatch: etag, extra: ["X-API-Key": fixture.demo.apiKey])
            #expect(byKey.status == 403)
            let readOnly = try await fixture.demo.accessToken(scope: "data.read data.write")
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: readOnly, key: ActionFixture.newKey(), ifMatch: etag).status == 403)
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: nil, key: ActionFixture.newKey(), ifMatch: etag).status == 401)
            #expect(try await fixture.item(ActionFixture.lowValue).etag == etag)
            try await fixture.database.withStorage { storage in
                let refused = try await storage.audit.auditEvents(clientID: nil, limit: 100).filter { $0.kind == "action.refused" }
                // One line per app and address a minute: the demo app's two refusals are one line, the kiosk's one.
                #expect(refused.count == 2 && refused.allSatisfy { $0.detail.hasPrefix("scope:") })
                #expect(refused.allSatisfy { !$0.detail.contains(widgets) && !$0.detail.contains(fixture.demo.apiKey) })
            }
        }
    }

    @Test("a decision's audit line says where the tap was made when the host names a known surface, and nothing else")
    func decisionsNameTheirSurface() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            let (token, _) = try await fixture.signIn()
            for (item, origin) in [(ActionFixture.lowValue, "widget"), ("PR-1003", "a made-up place")] {
                let etag = try await fixture.item(item).etag
                let answer = try await fixture.act(
                    .approve, on: item, token: token, key: ActionFixture.newKey(), ifMatch: etag, extra: [ItemActionRules.originHeader: origin])
                #expect(answer.status == 200)
            }
            let approved = try await fixture.auditLines().filter { $0.kind == "action.approved" }.map(\.detail)
            #expect(approved.count == 2 && approved[0].contains("approved from the widget") && !approved[1].contains(" from the "))
        }
    }

    /// The approvals' version (content hash).
    static func version(_ fixture: ActionFixture) async throws -> String? {
        try await fixture.database.withStorage { storage in
            try await storage.businessData.entitySetVersion(destination: "sales", entitySet: DemoBusinessData.approvals)
        }
    }
}
