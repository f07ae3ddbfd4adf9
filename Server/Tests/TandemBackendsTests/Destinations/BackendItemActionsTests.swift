import Foundation
import Testing
import TandemProtocol
@testable import TandemBackends

/// A backend set's actions: how they are written, which are refused before they are saved, and
/// the call each makes (REST path, OData V4 bound action, OData V2 function import).
@Suite struct BackendItemActionsTests {
    static func destination(_ kind: BackendProtocolKind, actions: BackendItemActions, idType: BackendFieldType? = nil) -> BackendDestination {
        let mapping = EntitySetMapping(
            protocolKind: kind, items: kind == .rest ? JSONPointer(tokens: ["results"]) : nil,
            id: FieldMapping(pointer: JSONPointer(tokens: ["ID"]), type: idType))
        return BackendDestination(
            name: "erp", title: "ERP", protocolKind: kind, baseURL: "https://erp.example.com/svc", authentication: .none,
            entitySets: [BackendEntitySet(name: "Approvals", path: "ApprovalSet", mapping: mapping, actions: actions)])
    }

    @Test func theThreeFormsReadAndWriteAsDocumented() throws {
        let json = #"{"apps":["sales-app"],"approve":{"method":"POST","path":"approvals/{id}/approve/"},"# +
            #""reject":{"boundAction":"com.example.Reject"},"stepUpAbove":"1000.00"}"#
        let actions = try JSONDecoder().decode(BackendItemActions.self, from: Data(json.utf8))
        #expect(actions.approve == .rest(method: .post, path: "approvals/{id}/approve/"))
        #expect(actions.reject == .boundAction("com.example.Reject"))
        #expect(actions.stepUpThreshold == Decimal(1000))
        let v2 = try JSONDecoder().decode(BackendActionCall.self, from: Data(#"{"functionImport":"Approve","parameter":"RequestID"}"#.utf8))
        #expect(v2 == .functionImport(name: "Approve", parameter: "RequestID"))
        let again = try JSONDecoder().decode(BackendItemActions.self, from: try JSONEncoder().encode(actions))
        #expect(again == actions)
    }

    @Test func restActionsPostToTheirPathWithTheIdAsOneSegment() throws {
        let erp = Self.destination(.rest, actions: BackendItemActions(
            apps: ["sales-app"], approve: .rest(method: .post, path: "approvals/{id}/approve/"), reject: .rest(method: .patch, path: "approvals/{id}")))
        try erp.validate()
        let approve = try erp.actionCall(.approve, on: "A 1/../x", of: erp.entitySets[0])
        #expect(approve.method == .post && approve.url.absoluteString == "https://erp.example.com/svc/approvals/A%201%2F..%2Fx/approve/")
        #expect(try erp.actionCall(.reject, on: "A-1", of: erp.entitySets[0]).method == .patch)
    }

    @Test func odataKeysAreLiteralsOrIntegers() throws {
        let v4 = Self.destination(.odataV4, actions: BackendItemActions(
            apps: ["sales-app"], approve: .boundAction("com.example.Approve"), reject: .boundAction("com.example.Reject")))
        try v4.validate()
        #expect(try v4.actionCall(.approve, on: "O'Brien", of: v4.entitySets[0]).url.absoluteString
            == "https://erp.example.com/svc/ApprovalSet('O''Brien')/com.example.Approve")
        let numbered = Self.destination(.odataV4, actions: v4.entitySets[0].actions!, idType: .edmInt64)
        #expect(try numbered.actionCall(.approve, on: "42", of: numbered.entitySets[0]).url.absoluteString
            == "https://erp.example.com/svc/ApprovalSet(42)/com.example.Approve")
        #expect(throws: BackendDestinationError.self) { try numbered.actionCall(.approve, on: "42) or (1", of: numbered.entitySets[0]) }
        let v2 = Self.destination(.odataV2, actions: BackendItemActions(
            apps: ["sales-app"], approve: .functionImport(name: "ApproveRequest", parameter: "RequestID"),
            reject: .functionImport(name: "RejectRequest", parameter: "RequestID")))
        try v2.validate()
        #expect(try v2.actionCall(.reject, on: "R 7", of: v2.entitySets[0]).url.absoluteString
            == "https://erp.example.com/svc/RejectRequest?RequestID='R%207'")
    }

    @Test func unusableActionsAreRefusedBeforeTheyAreSaved() {
        let rest = BackendActionCall.rest(method: .post, path: "approvals/{id}/approve/")
        let refused: [(BackendProtocolKind, BackendItemActions)] = [
            (.rest, BackendItemActions(apps: [], approve: rest, reject: rest)),
            (.rest, BackendItemActions(apps: ["a b"], approve: rest, reject: rest)),
            (.rest, BackendItemActions(apps: ["app"], approve: .rest(method: .get, path: "approvals/{id}"), reject: rest)),
            (.rest, BackendItemActions(apps: ["app"], approve: .rest(method: .post, path: "approvals/approve/"), reject: rest)),
            (.rest, BackendItemActions(apps: ["app"], approve: .rest(method: .post, path: "../admin/{id}"), reject: rest)),
            (.rest, BackendItemActions(apps: ["app"], approve: .rest(method: .post, path: "https://evil.example/{id}"), reject: rest)),
            (.rest, BackendItemActions(apps: ["app"], approve: rest, reject: rest, stepUpAbove: "1e3")),
            (.rest, BackendItemActions(apps: ["app"], approve: .boundAction("A.B"), reject: rest)),
            (.odataV4, BackendItemActions(apps: ["app"], approve: .boundAction("A.B/../C"), reject: .boundAction("A.C"))),
            (.odataV2, BackendItemActions(apps: ["app"], approve: .functionImport(name: "F", parameter: "x&y=1"), reject: .functionImport(name: "G", parameter: "x"))),
        ]
        for (kind, actions) in refused {
            #expect(throws: BackendDestinationError.self, "\(actions)") { try Self.destination(kind, actions: actions).validate() }
        }
    }
}
