import Foundation
import Testing

@testable import TandemBackends

/// A backend destination's document: read, checked before anything is saved, written back the
/// same; each refusal says what is wrong.
@Suite("Backend destination")
struct BackendDestinationTests {
    /// An SAP Gateway approvals service, as an operator writes it.
    static let gateway = """
        {"name":"erp","title":"ERP approvals","protocolKind":"odata-v2",
         "baseURL":"https://erp.example.com/sap/opu/odata/sap/ZAPPROVALS_SRV/",
         "authentication":{"mode":"user-token","audience":"https://erp.example.com"},
         "entitySets":[{"name":"Approvals","path":"ApprovalSet",
           "query":[{"name":"$filter","value":"Status eq 'Open'"},{"name":"$orderby","value":"CreatedAt desc"}],
           "mapping":{"protocolKind":"odata-v2","id":{"pointer":"/ApprovalID","type":"Edm.String"},
                      "title":{"pointer":"/Text"},"amount":{"pointer":"/Amount","type":"Edm.Decimal"}}}]}
        """

    static func edited(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(gateway.utf8)) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func firstSet(_ edit: @escaping (inout [String: Any]) -> Void) throws -> Data {
        try edited { object in
            var sets = object["entitySets"] as? [[String: Any]] ?? []
            edit(&sets[0])
            object["entitySets"] = sets
        }
    }

    @Test("an OData V2 destination reads, and its stored document reads back the same")
    func readsAndRoundTrips() throws {
        let destination = try BackendDestination.decode(Data(Self.gateway.utf8))
        #expect(destination.name == "erp" && destination.protocolKind == .odataV2)
        #expect(destination.authentication == .userToken(audience: "https://erp.example.com"))
        #expect(destination.entitySets.map(\.name) == ["Approvals"])
        #expect(destination.entitySets[0].query == [
            BackendQueryItem(name: "$filter", value: "Status eq 'Open'"), BackendQueryItem(name: "$orderby", value: "CreatedAt desc"),
        ])
        #expect(try BackendDestination.decode(destination.document()) == destination)
        let text = String(decoding: destination.document(), as: UTF8.self)
        #expect(text.contains("\"protocolKind\":\"odata-v2\"") && text.contains("\"mode\":\"user-token\""))
    }

    @Test("a technical user names the user in a header of its own, never one the server sets")
    func aTechnicalUserAndItsHeader() throws {
        let defaulted = try Self.edited { $0["authentication"] = ["mode": "technical-user", "audience": "https://erp.example.com"] }
        let destination = try BackendDestination.decode(defaulted)
        #expect(destination.authentication == .technicalUser(audience: "https://erp.example.com", userHeader: "Tandem-User"))
        #expect(destination.authentication.audience == "https://erp.example.com")
        #expect(try BackendDestination.decode(destination.document()) == destination)
        #expect(!String(decoding: destination.document(), as: UTF8.self).contains("password"), "no secret in the document")
        for header in ["Authorization", "cookie", "If-Match", "Has Space", "", String(repeating: "X", count: 65), "Tandem-User\r\nX: y"] {
            let refused = try Self.edited {
                $0["authentication"] = ["mode": "technical-user", "audience": "https://erp.example.com", "userHeader": header]
            }
            #expect(throws: BackendDestinationError.self, "\(header.debugDescription)") { try BackendDestination.decode(refused) }
        }
        let custom = try Self.edited {
            $0["authentication"] = ["mode": "technical-user", "audience": "https://erp.example.com", "userHeader": "X-On-Behalf-Of"]
        }
        #expect(try BackendDestination.decode(custom).authentication == .technicalUser(audience: "https://erp.example.com", userHeader: "X-On-Behalf-Of"))
    }

    @Test("a set's query may be left out: it has none")
    func aSetWithoutAQueryHasNone() throws {
        let destination = try BackendDestination.decode(try Self.firstSet { $0.removeValue(forKey: "query") })
        #expect(destination.entitySets[0].query.isEmpty)
        #expect(try BackendDestination.decode(destination.document()) == destination)
    }

    @Test("plain HTTP only to a loopback host, and a REST destination without credentials")
    func loopbackAndNone() throws {
        let local = try Self.edited { object in
            object["baseURL"] = "http://127.0.0.1:8000/api/"
            object["authentication"] = ["mode": "none"]
        }
        #expect(try BackendDestination.decode(local).authentication == BackendAuthentication.none)
        let plain = try Self.edited { $0["baseURL"] = "http://erp.example.com/" }
        #expect(throws: BackendDestinationError.self) { try BackendDestination.decode(plain) }
    }

    @Test("each refusal names what is wrong", arguments: [
        ("name", "the destination name"), ("title", "title"), ("baseURL query", "query or fragment"),
        ("baseURL credentials", "credentials"), ("baseURL scheme", "https only"), ("audience", "audience"),
        ("mode", "user-token, technical-user or none"), ("kind", "protocolKind"), ("no sets", "1–50 entity sets"),
        ("duplicate", "two entity sets"), ("path up", "relative"), ("path absolute", "relative"),
        ("odata query", "$top"), ("mapping kind", "another protocol"), ("mapping", "entity set \"Approvals\""),
    ])
    func refusals(_ case: String, _ expected: String) throws {
        let document: Data = switch `case` {
        case "name": try Self.edited { $0["name"] = "erp/prod" }
        case "title": try Self.edited { $0["title"] = "" }
        case "baseURL query": try Self.edited { $0["baseURL"] = "https://erp.example.com/?sap-client=100" }
        case "baseURL credentials": try Self.edited { $0["baseURL"] = "https://user:secret@erp.example.com/" }
        case "baseURL scheme": try Self.edited { $0["baseURL"] = "ftp://erp.example.com/" }
        case "audience": try Self.edited { $0["authentication"] = ["mode": "user-token", "audience": "two words"] }
        case "mode": try Self.edited { $0["authentication"] = ["mode": "basic"] }
        case "kind": try Self.edited { $0["protocolKind"] = "soap" }
        case "no sets": try Self.edited { $0["entitySets"] = [] }
        case "duplicate": try Self.edited { object in
            let sets = object["entitySets"] as? [[String: Any]] ?? []
            object["entitySets"] = sets + sets
        }
        case "path up": try Self.firstSet { $0["path"] = "../admin" }
        case "path absolute": try Self.firstSet { $0["path"] = "https://elsewhere.example.com/x" }
        case "odata query": try Self.firstSet { $0["query"] = [["name": "$top", "value": "5"]] }
        case "mapping kind": try Self.firstSet { set in
            var mapping = set["mapping"] as? [String: Any] ?? [:]
            mapping["protocolKind"] = "odata-v4"
            set["mapping"] = mapping
        }
        default: try Self.firstSet { set in
            var mapping = set["mapping"] as? [String: Any] ?? [:]
            mapping["id"] = ["pointer": ""]
            set["mapping"] = mapping
        }
        }
        do {
            _ = try BackendDestination.decode(document)
            Issue.record("\(`case`) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(`case`): \(error.description)")
        }
    }

    @Test("broken JSON is refused as a malformed document")
    func brokenJSON() {
        #expect(throws: BackendDestinationError.self) { try BackendDestination.decode(Data("{\"name\":".utf8)) }
    }
}
