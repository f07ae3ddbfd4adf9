import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Who may decide an item is the data's rule (S4-03): the set names the apps whose hosts may act
/// and the people who may decide, never an item's requester, and its own step-up threshold holds
/// whichever app decides. Holding `actions`, which is no longer a default scope, decides nothing.
@Suite("Approvers of actionable sets")
struct ApproverTests {
    @Test("a user of an app the set does not list is refused, whatever their scope", arguments: TestBackend.allCases)
    func anotherAppsUserIsRefused(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            try await fixture.create(user: "mallory", app: "unrelated-app")
            let (token, _) = try await fixture.signIn(as: "mallory", to: "unrelated-app")
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            let answer = try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: etag)
            #expect(answer.status == 403 && answer.json["error"] == "not_permitted", "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(try await fixture.item(ActionFixture.lowValue).status == "pending")
            let refused = try await fixture.database.withStorage { storage in
                try await storage.audit.auditEvents(clientID: "unrelated-app", limit: 10).filter { $0.kind == "action.refused" }
            }
            #expect(refused.count == 1 && refused.first?.detail.contains("may not act") == true)
        }
    }

    @Test("through a listed app, only the approvers decide: the group's members, or the people the item names", arguments: TestBackend.allCases)
    func onlyApproversDecide(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            try await fixture.create(user: "mallory")
            let (mallory, _) = try await fixture.signIn(as: "mallory")
            let (demo, _) = try await fixture.signIn()
            let first = try await fixture.item(ActionFixture.lowValue).etag
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: mallory, key: ActionFixture.newKey(), ifMatch: first).status == 403)
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: demo, key: ActionFixture.newKey(), ifMatch: first).status == 200)

            // The item names its approvers: now mallory may decide PR-1003, and the demo user may not.
            try await fixture.setApprovals { $0.approvers = .field("Approvers") }
            try await fixture.database.withStorage { storage in
                var rows = try #require(try await storage.businessData.entityPage(
                    destination: "sales", entitySet: DemoBusinessData.approvals, offset: 0, limit: 100)?.rows)
                rows = try rows.map { text in
                    var row = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
                    row["Approvers"] = .array([.string("mallory"), .string("someone")])
                    return try ActionableRows.canonical(row)
                }
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales (demo)", name: DemoBusinessData.approvals, rows: rows, now: Timestamp(fixture.demo.clock.now))
            }
            let etag = try await fixture.item("PR-1003").etag
            let byDemo = try await fixture.act(.approve, on: "PR-1003", token: demo, key: ActionFixture.newKey(), ifMatch: etag)
            #expect(byDemo.status == 403 && byDemo.json["error"] == "not_permitted")
            #expect(try await fixture.act(.approve, on: "PR-1003", token: mallory, key: ActionFixture.newKey(), ifMatch: etag).status == 200)
        }
    }

    @Test("the requester never decides their own item, approver or not")
    func noSelfApproval() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            try await fixture.database.withStorage { storage in
                try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales (demo)", name: DemoBusinessData.approvals,
                    rows: [#"{"Amount":"10.00","ApprovalID":"PR-7","Requester":"demo"}"#, #"{"Amount":"10.00","ApprovalID":"PR-8","Requester":"Lena Keller"}"#],
                    now: Timestamp(fixture.demo.clock.now))
            }
            let (demo, _) = try await fixture.signIn()
            let own = try await fixture.act(.approve, on: "PR-7", token: demo, key: ActionFixture.newKey(), ifMatch: try await fixture.item("PR-7").etag)
            #expect(own.status == 403 && own.json["error_description"]?.contains("requested by this user") == true)
            #expect(try await fixture.act(.approve, on: "PR-8", token: demo, key: ActionFixture.newKey(), ifMatch: try await fixture.item("PR-8").etag).status == 200)
        }
    }

    @Test("the set's step-up threshold holds whichever listed app decides: a looser app has no policy of its own to offer")
    func theSetsThresholdHoldsForEveryApp() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            try await fixture.create(user: "ada", app: "loose-app")
            try await fixture.setApprovals { $0.apps.insert("loose-app") }
            try await fixture.database.withStorage { storage in
                let ada = try #require(try await storage.accounts.user(named: "ada"))
                try await storage.accounts.addToGroup(userID: ada.id, group: ServerAdministration.demoApproverGroup, now: Timestamp(fixture.demo.clock.now))
            }
            let (token, _) = try await fixture.signIn(as: "ada", to: "loose-app")
            let high = try await fixture.item(ActionFixture.highValue)
            let answer = try await fixture.act(.approve, on: ActionFixture.highValue, token: token, key: ActionFixture.newKey(), ifMatch: high.etag)
            #expect(answer.status == 401 && answer.json["error"] == ItemActionRules.stepUpRequiredError)
            let configuration = try await fixture.client.get("v1/apps/loose-app/configuration")
            #expect(try JSONDecoder().decode(AppConfigurationDocument.self, from: configuration.body).actionPolicy == .default)
            let low = try await fixture.item(ActionFixture.lowValue)
            #expect(try await fixture.act(.approve, on: ActionFixture.lowValue, token: token, key: ActionFixture.newKey(), ifMatch: low.etag).status == 200)
        }
    }

    @Test("a set made actionable before approvers existed is decided by nobody until an administrator names them")
    func aSetWithoutApproversDecidesNothing() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            try await fixture.setApprovals { $0.approvers = nil }
            let (demo, _) = try await fixture.signIn()
            let answer = try await fixture.act(
                .approve, on: ActionFixture.lowValue, token: demo, key: ActionFixture.newKey(), ifMatch: try await fixture.item(ActionFixture.lowValue).etag)
            #expect(answer.status == 403 && answer.json["error_description"]?.contains("names no approvers") == true)
        }
    }

    @Test("actions is no default scope; an app the sets list is told to ask for it")
    func actionsIsNoDefaultScope() async throws {
        #expect(!OAuthScope.parse(OAuthScope.userDefault).contains(OAuthScope.actions))
        try await ActionFixture.withServer(.sqlite) { fixture in
            try await fixture.create(user: "ada", app: "unrelated-app")
            let unrelated = try await fixture.client.get("v1/apps/unrelated-app/configuration")
            #expect(unrelated.object["default_scope"] as? String == OAuthScope.userDefault)
            let demo = try await fixture.client.get("v1/apps/\(ServerAdministration.demoClientID)/configuration")
            #expect(demo.object["default_scope"] as? String == OAuthScope.userGrantable)
        }
    }
}
