import Foundation
import Testing

@testable import TandemProtocol

/// The wire of item actions, written once for the host and the server: the path, the headers'
/// rules, the item ETag, the result document and the app's action policy.
@Suite("Item action wire")
struct ItemActionWireTests {
    @Test func thePathEscapesEverySegment() {
        #expect(APIPath.itemAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1001"), action: .approve)
            == "/v1/destinations/sales/Approvals/PR-1001/actions/approve")
        #expect(APIPath.itemAction(ItemAddress(destination: "a b", entitySet: "c/d", item: "e?f"), action: .reject)
            == "/v1/destinations/a%20b/c%2Fd/e%3Ff/actions/reject")
        #expect(APIPath.stepUpKey == "/v1/step-up-key")
        #expect(ItemAction.approve.decidedStatus == "approved" && ItemAction.reject.decidedStatus == "rejected")
    }

    @Test func anItemIsNamedByOneAddress() {
        let address = ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1001")
        #expect(address.description == "sales/Approvals/PR-1001")
        #expect(address == ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1001"))
        #expect(address != ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1002"))
        let document = ItemActionResultDocument(address, action: .approve, status: "approved", etag: "\"e\"", decidedAt: "2026-12-07T09:30:00.000Z")
        #expect(document.address == address)
    }

    @Test func theUsersGrantCarriesActionsAndTheWidgetsGrantNever() {
        #expect(!OAuthScope.parse(OAuthScope.userDefault).contains(OAuthScope.actions), "an app that decides asks for it")
        #expect(OAuthScope.parse(OAuthScope.userGrantable).contains(OAuthScope.actions))
        #expect(OAuthScope.all.contains(OAuthScope.actions))
        #expect(OAuthScope.parse(OAuthScope.extensionGrant) == [OAuthScope.dataRead])
    }

    @Test func theOriginHeaderNamesTheSurfacesTheSDKKnows() {
        #expect(ItemActionRules.originHeader == "Tandem-Action-Origin")
        #expect(ItemActionRules.Origin.allCases.map(\.rawValue) == ["widget", "control", "shortcut", "app"])
    }

    @Test func idempotencyKeysAre16To128SafeCharacters() {
        #expect(ItemActionRules.isValidIdempotencyKey(UUID().uuidString))
        #expect(ItemActionRules.isValidIdempotencyKey("abcdefghijklmnop"))
        #expect(ItemActionRules.isValidIdempotencyKey(String(repeating: "a._~-", count: 25) + "xyz"))
        #expect(!ItemActionRules.isValidIdempotencyKey("abcdefghijklmno"), "15 characters")
        #expect(!ItemActionRules.isValidIdempotencyKey(String(repeating: "a", count: 129)))
        #expect(!ItemActionRules.isValidIdempotencyKey("abcdefghijklmnop "))
        #expect(!ItemActionRules.isValidIdempotencyKey("abcdefghijklmnöp"))
        #expect(!ItemActionRules.isValidIdempotencyKey("abcdefgh/ijklmnop"))
    }

    @Test func anItemsTagIgnoresItsOwnTagAndFollowsEverythingElse() throws {
        let row: [String: JSONValue] = ["ApprovalID": .string("PR-1"), "Amount": .string("10.00"), "Status": .string("pending")]
        let tag = try ItemActionRules.itemTag(row: row)
        #expect(tag.count == 34 && tag.first == "\"" && tag.last == "\"")
        #expect(tag.dropFirst().dropLast().allSatisfy { "0123456789abcdef".contains($0) })
        var tagged = row
        tagged[ItemActionRules.etagField] = .string(tag)
        #expect(try ItemActionRules.itemTag(row: tagged) == tag)
        var changed = row
        changed["Status"] = .string("approved")
        #expect(try ItemActionRules.itemTag(row: changed) != tag)
        #expect(ItemActionRules.itemTag(canonicalRowWithoutTag: Array(#"{"Amount":"10.00","ApprovalID":"PR-1","Status":"pending"}"#.utf8)) == tag)
    }

    @Test func theResultDocumentIsSnakeCase() throws {
        let document = ItemActionResultDocument(
            ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1"), action: .approve, status: "approved", etag: "\"ab\"",
            decidedAt: "2026-03-14T09:30:00.000Z")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(document), as: UTF8.self)
        #expect(json == #"{"action":"approve","decided_at":"2026-03-14T09:30:00.000Z","destination":"sales","entity_set":"Approvals","etag":"\"ab\"","item":"PR-1","status":"approved"}"#)
        #expect(try JSONDecoder().decode(ItemActionResultDocument.self, from: Data(json.utf8)) == document)
    }

    @Test func thePolicyStepsUpAboveItsThresholdAndWhenInDoubt() throws {
        let policy = ActionPolicyDocument.default
        #expect(!policy.requiresStepUp(amount: Decimal(string: "1000.00")))
        #expect(policy.requiresStepUp(amount: Decimal(string: "1000.01")))
        #expect(policy.requiresStepUp(amount: nil), "an unknown amount steps up")
        #expect(policy.amount(inRow: ["Amount": .string("999.50")]) == Decimal(string: "999.5"))
        #expect(policy.amount(inRow: ["Amount": .number(1250)]) == Decimal(1250))
        for unreadable: JSONValue in [.string("12abc"), .string("1e3"), .string(" 12"), .string(""), .bool(true), .null] {
            #expect(policy.amount(inRow: ["Amount": unreadable]) == nil, "\(unreadable)")
        }
        #expect(policy.amount(inRow: [:]) == nil)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(policy), as: UTF8.self) == #"{"amount_field":"Amount","step_up_above":"1000.00"}"#)
        let custom = try JSONDecoder().decode(ActionPolicyDocument.self, from: Data(#"{"step_up_above":"250.5"}"#.utf8))
        #expect(custom == ActionPolicyDocument(stepUpAbove: Decimal(string: "250.5")!, amountField: "Amount"))
        #expect(String(decoding: try encoder.encode(custom), as: UTF8.self).contains(#""step_up_above":"250.50""#))
        for bad in [#"{"step_up_above":"-1"}"#, #"{"step_up_above":"lots"}"#, #"{"step_up_above":"1","amount_field":""}"#, "{}"] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(ActionPolicyDocument.self, from: Data(bad.utf8)) }
        }
    }

    @Test func anOlderConfigurationDocumentHasTheDefaultPolicy() throws {
        let document = AppConfigurationDocument(
            issuer: "https://t.example", clientID: "app", name: "App", securityMode: "oauth", redirectURIs: [], urlScheme: nil,
            ssoEnabled: false, actionPolicy: ActionPolicyDocument(stepUpAbove: 50))
        let encoded = try JSONEncoder().encode(document)
        #expect(try JSONDecoder().decode(AppConfigurationDocument.self, from: encoded).actionPolicy.stepUpAbove == 50)
        guard var object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] else {
            Issue.record("not an object")
            return
        }
        object["action_policy"] = nil
        let older = try JSONDecoder().decode(AppConfigurationDocument.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(older.actionPolicy == .default)
    }
}
